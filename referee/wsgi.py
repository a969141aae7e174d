"""The WSGI entry point for gunicorn: ``referee.wsgi:app``."""

from referee.app import create_app
from referee.settings import SettingError

try:
    app = create_app()
except SettingError as bad:  # a misconfigured environment: say which variable, without a traceback
    raise SystemExit(f"Referee: {bad}") from None
