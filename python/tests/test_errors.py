"""The library's located errors arrive as Python exceptions with file, line and column."""

import pytest

import castellan


def test_a_ruleset_with_an_unknown_key_is_located(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nextends = "base"\n\nbogus = 3\n')
    with pytest.raises(castellan.DataError) as err:
        castellan.Ruleset.load(path)
    e = err.value
    assert (e.file, e.line, e.column) == (str(path), 4, 1)
    assert "bogus" in e.message
    assert f"{path}:4:1" in str(e)
    assert isinstance(e, castellan.CastellanError)


def test_an_unknown_ruleset_name_says_what_exists():
    with pytest.raises(castellan.DataError) as err:
        castellan.Ruleset.load("no-such-rules")
    assert err.value.line is None and "hig" in err.value.message


def test_a_broken_tile_set_is_located(tmp_path):
    path = tmp_path / "tiles.toml"
    path.write_text('name = "t"\n[[tile]]\nid = "A"\ncount = "many"\n')
    with pytest.raises(castellan.DataError) as err:
        castellan.TileSet.load(path)
    assert err.value.file == str(path) and err.value.line == 4


def test_a_malformed_record_is_located():
    with pytest.raises(castellan.DataError) as err:
        castellan.Record.parse('ruleset = "base"\nplayers = ["A", "B"]\n[[action]]\nplace = [0, 1]\n', "r.toml")
    assert (err.value.file, err.value.line) == ("r.toml", 4)


def test_an_illegal_action_in_a_record_is_located():
    text = 'ruleset = "base"\nplayers = ["A", "B"]\nseed = 1\n\n[[action]]\nplace = [5, 5, 0]\n'
    record = castellan.Record.parse(text, "r.toml")
    with pytest.raises(castellan.IllegalActionError) as err:
        record.replay()
    e = err.value
    assert (e.file, e.line, e.column, e.index) == ("r.toml", 5, 1, 1)  # the `[[action]]` table of action 1
