"""No absolute path of the server's folders in an error sent to the browser (issue 33): a file of the game folder
``toolkit serve`` was given is named relative to that folder, the folder itself by its name, a bundled game's file
relative to the bundled games' folder."""
import warnings

from toolkit.cli import main
from toolkit.game import modules_dir
from toolkit.web import SourceBook, create_app
from toolkit.web.app import private, server_folders

with warnings.catch_warnings():   # Starlette 1.x would rather run its TestClient on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_an_error_in_the_game_folder_names_the_file_relative_to_it(capsys, tmp_path):
    folder = tmp_path / "my-game"
    assert main(["new", str(folder), "--cols", "8", "--rows", "6"]) in (0, None)
    capsys.readouterr()
    book = SourceBook(str(folder))
    scenario = folder / "scenarios" / "scenario-1.yaml"
    scenario.write_text(scenario.read_text().replace("counter: red-hq", "counter: no-such-counter"))
    with TestClient(create_app(book)) as c:
        r = c.get("/api/source", params={"source": "game:my-game/scenario-1.yaml"})
    error = r.json()["error"]
    assert r.status_code == 400 and error.startswith("scenarios/scenario-1.yaml: units[7].counter: unknown counter "
                                                     "'no-such-counter'"), error
    assert str(tmp_path) not in error and "/my-game" not in error


def test_the_folder_itself_is_named_by_its_name_and_a_longer_name_is_left_alone(tmp_path):
    folder = tmp_path / "my-game"
    folders = server_folders(SourceBook(None)) + [folder]
    said = f"no rules for my-game yet: describe them in {folder / 'rules.yaml'}; {folder} has no scenarios/"
    assert private(said, folders) == "no rules for my-game yet: describe them in rules.yaml; my-game has no scenarios/"
    assert private(f"{folder}-2/x.yaml", folders) == f"{folder}-2/x.yaml"     # another folder: not this one's
    bundled = modules_dir().resolve() / "jerusalem-1948" / "scenarios" / "scenario-ii.yaml"
    assert private(f"{bundled}: line 3", folders) == "jerusalem-1948/scenarios/scenario-ii.yaml: line 3"
