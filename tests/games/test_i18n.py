"""Every text a verdict can carry has a Japanese translation in the gettext catalogs."""

import pytest

from referee.games import GAMES
from referee.i18n import known_msgids, translate


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_violation_message_and_rule_has_japanese(game_id):
    game = GAMES[game_id]
    assert game.messages, f"{game_id} declares no violation messages"
    texts = {text for message, rule in game.messages.values() for text in (message, rule)}
    assert texts <= known_msgids("ja")
    # ... in the game's own catalog (domain = game id), which is the one its answers use.
    assert sorted(text for text in texts if translate(text, "ja", game_id) == text) == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_japanese_messages_keep_their_placeholders(game_id):
    for message, _rule in GAMES[game_id].messages.values():
        fields = {part.split("}")[0] for part in message.split("{")[1:]}
        translated = translate(message, "ja", game_id)
        assert {part.split("}")[0] for part in translated.split("{")[1:]} == fields, message


def test_english_is_the_msgid_itself():
    assert translate("The game is over.", "en") == "The game is over."
    assert translate("The game is over.", "ja") == "ゲームは終了しています。"


def test_english_names_identifiers_with_the_rulebooks_words():
    """Activating the Action Block: the condition is printed "Enemy Possession"; the spots are
    the Black and White hideouts and alleys and the neutral alley (Setup)."""
    assert translate("enemy_possession", "en", "catatac") == "Enemy Possession"
    assert translate("neutral_alley", "en", "catatac") == "the neutral alley"
    assert translate("white", "en", "catatac") == "white"
    assert translate("enemy_possession", "en", "call-of-katulhu") == "enemy_possession"


def test_a_game_catalog_does_not_translate_another_games_values():
    """CATATAC's catalog names the clan "white"; a Call of Katulhu value "white" stays as it is."""
    assert translate("white", "ja", "catatac") != "white"
    assert translate("white", "ja", "call-of-katulhu") == "white"


# The section headings of the Japanese CATATAC rulebook (shared/rulebooks/catatac.ja.txt), as
# printed there; a Japanese answer cites one of them.
CATATAC_JA_HEADINGS = {
    "概要", "目的", "準備", "手番", "1. 肉球カードを出す", "2. 毛糸玉に干渉する", "3. 手札を補充する", "詳細",
    "1. 肉球カードを出す(PLAY A PAW CARD)", "ペアを作る", "戦術スタックを発動する", "コンボ",
    "チームワーク(4人または6人で遊ぶ場合)", "隠れ家への持ち込み", "持ち込みを阻止する(失敗)", "持ち込み(成功)",
    "ゲームの終了", "バリエーション", "ブースター",
}


def test_japanese_catatac_citations_are_headings_of_the_japanese_rulebook():
    """The Japanese rulebook has no Icons section (the English one does): bars and coin tosses
    are cited under "Activating the Action Block" (戦術スタックを発動する), where it describes them."""
    cited = {translate(rule, "ja", "catatac") for _message, rule in GAMES["catatac"].messages.values()}
    assert translate("Icons", "ja", "catatac") == "戦術スタックを発動する"
    assert sorted(cited - CATATAC_JA_HEADINGS) == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_joint_seeding_violations_have_japanese_in_every_game(game_id):
    """A jointly seeded match's violations (referee/engine/joint.py) come in the game's domain."""
    from referee.engine.joint import MESSAGES
    for message, rule in MESSAGES.values():
        for text in (message, rule):
            translated = translate(text, "ja", game_id)
            assert translated != text
            assert _fields(translated) == _fields(text), text


def _fields(text: str) -> set[str]:
    return {part.split("}")[0] for part in text.split("{")[1:]}
