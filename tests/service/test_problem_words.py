"""The words of problems: every message the code writes has its Japanese translation, keeping
its fields; messages written by marshmallow and the games' schemas are translated too; what a
message quotes of a request is bounded."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from marshmallow import ValidationError, fields, validate

import referee
from referee.i18n import translate
from referee.service.errors import STATUS_KINDS, Refused
from referee.service.texts import DOMAIN, ELLIPSIS, FOREIGN_TEMPLATES, Text, echo, said

SOURCES = Path(referee.__file__).parent


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _code_msgids() -> set[tuple[str, bool]]:
    """``(msgid, has parameters)`` of every ``Text("...")`` call in the code, and every string
    passed as a problem's ``title``."""
    found = set()
    for path in SOURCES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name == "Text" and node.args and isinstance(node.args[0], ast.Constant):
                found.add((node.args[0].value, bool(node.keywords)))
            for keyword in node.keywords:
                if keyword.arg == "title" and isinstance(keyword.value, ast.Constant) and keyword.value.value:
                    found.add((keyword.value.value, False))
    return found


def _titles() -> set[str]:
    titles = {title for _, title in STATUS_KINDS.values()}
    for kind in Refused.__subclasses__():
        if kind.title:
            titles.add(kind.title)
    return titles


def test_the_code_writes_problems_with_texts():
    """The extraction finds the messages (a guard against a test that checks nothing)."""
    msgids = {msgid for msgid, _ in _code_msgids()}
    assert len(msgids) > 80
    assert "Malformed header" in msgids
    assert any(msgid.startswith("The match is at version {version}; this move was chosen") for msgid in msgids)


def test_every_message_of_the_code_has_japanese_keeping_its_fields():
    missing, changed = [], []
    for msgid, with_params in sorted(_code_msgids()) + [(title, False) for title in sorted(_titles())]:
        japanese = translate(msgid, "ja", DOMAIN)
        if japanese == msgid:
            missing.append(msgid)
        elif with_params and _fields(japanese) != _fields(msgid):
            changed.append(msgid)
    assert missing == [] and changed == []


def test_every_foreign_template_has_japanese_keeping_its_fields():
    for msgid in FOREIGN_TEMPLATES:
        japanese = translate(msgid, "ja", DOMAIN)
        assert japanese != msgid and _fields(japanese) == _fields(msgid), msgid


# marshmallow's messages a body can meet (fields and validators the schemas use), as it writes them.
MARSHMALLOW = [
    fields.Field.default_error_messages["required"], fields.Field.default_error_messages["null"],
    fields.List.default_error_messages["invalid"], fields.String.default_error_messages["invalid"],
    fields.Integer.default_error_messages["invalid"], fields.Number.default_error_messages["too_large"],
    fields.Boolean.default_error_messages["invalid"], fields.Dict.default_error_messages["invalid"],
    "Unknown field.", "Invalid input type.", validate.Regexp.default_message,
]


@pytest.mark.parametrize("message", MARSHMALLOW)
def test_marshmallow_messages_are_said_in_japanese(message):
    assert said(message, "ja") != message
    assert said(message, "en") == message


def test_marshmallow_messages_with_values_are_said_with_them():
    """Validators write their bounds into their messages: the Japanese keeps them."""
    with pytest.raises(ValidationError) as refused:
        validate.Range(0, 5)(9)
    [range_message] = refused.value.messages
    assert range_message == "Must be greater than or equal to 0 and less than or equal to 5."
    assert said(range_message, "ja") == "0以上5以下でなければなりません。"
    assert said("Must be one of: play, decline.", "ja") == "次のいずれかでなければなりません：play, decline。"
    assert said("Longer than maximum length 4.", "ja") == "長さが最大の4を超えています。"
    # a foreign template's field that is itself a message of the catalog is said too
    assert said("its name: Unknown field.", "ja") == "その名前：不明なフィールドです。"
    assert said("Some words no catalog has.", "ja") == "Some words no catalog has."


def test_a_text_is_its_english_words_and_says_itself_in_japanese():
    text = Text("No match \"{match}\": it never existed or it expired. Check the id, or create a match "
                "(POST /v1/matches).", match="abc")
    assert text == 'No match "abc": it never existed or it expired. Check the id, or create a match (POST /v1/matches).'
    assert said(text, "ja") == ("マッチ「abc」はありません。存在しなかったか、期限切れです。IDを確かめるか、"
                                "マッチを作成してください（POST /v1/matches）。")
    # a parameter that is a Text is said in the sentence's language; any other value as it is
    nested = Text("{reason} at line {line}, column {column}", reason=Text("a value was expected"), line=2, column=3)
    assert said(nested, "ja") == "2行3列目：値がありません"
    quoted = Text("No match \"{match}\": it never existed or it expired. Check the id, or create a match "
                  "(POST /v1/matches).", match="Unknown field.")
    assert "「Unknown field.」" in said(quoted, "ja")
    # without parameters a Text is its words as written, braces and all
    assert Text('send it inside {"move": ...}.') == 'send it inside {"move": ...}.'


def test_echo_cuts_long_values_to_the_bound_with_an_ellipsis():
    assert echo("x" * 64) == "x" * 64
    cut = echo("x" * 1_000_000)
    assert len(cut) == 64 and cut == "x" * 63 + ELLIPSIS
    assert echo(12) == "12"
