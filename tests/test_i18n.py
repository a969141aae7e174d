"""Every text a verdict can carry has a Japanese translation in the gettext catalogs."""

import pytest

from referee.games import GAMES
from referee.i18n import known_msgids, translate


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_violation_message_and_rule_has_japanese(game_id):
    game = GAMES[game_id]
    assert game.messages, f"{game_id} declares no violation messages"
    japanese = known_msgids("ja")
    missing = sorted({text for message, rule in game.messages.values() for text in (message, rule)} - japanese)
    assert missing == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_japanese_messages_keep_their_placeholders(game_id):
    for message, _rule in GAMES[game_id].messages.values():
        fields = {part.split("}")[0] for part in message.split("{")[1:]}
        translated = translate(message, "ja")
        assert {part.split("}")[0] for part in translated.split("{")[1:]} == fields, message


def test_english_is_the_msgid_itself():
    assert translate("The game is over.", "en") == "The game is over."
    assert translate("The game is over.", "ja") == "ゲームは終了しています。"
