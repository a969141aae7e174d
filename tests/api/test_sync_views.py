"""Every view and hook is a plain function: the application hands them to Flask as they are
(referee/app.py, RefereeFlask.ensure_sync), so an ``async def`` one would never be awaited."""

import inspect

from referee.app import create_app


def _unwrapped(function):
    return inspect.unwrap(function)


def test_no_view_or_hook_is_a_coroutine_function():
    app = create_app({"TESTING": True})
    functions = list(app.view_functions.values())
    for registry in (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs):
        for hooks in registry.values():
            functions.extend(hooks)
    for handlers in app.error_handler_spec.values():
        for by_code in handlers.values():
            functions.extend(by_code.values())
    assert len(functions) > 20
    coroutines = [f.__qualname__ for f in functions if inspect.iscoroutinefunction(_unwrapped(f))]
    assert coroutines == []

