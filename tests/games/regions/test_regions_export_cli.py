"""The surface JSON format and `twinfold regions-gen` (files, errors, pictures)."""

import json

import pytest

from firmware.cli import main
from games.regions.rules import export
from games.regions.rules.catalogue import entry
from games.regions.rules.layout import draw
from games.regions.rules.surface import Surface


@pytest.fixture(scope="module")
def trefoil():
    surface = Surface(entry("3_1").shadow)
    return surface, draw(surface)


def test_json_has_the_documented_fields_and_round_trips(trefoil):
    surface, drawing = trefoil
    data = json.loads(json.dumps(export.to_json(surface, drawing, "t")))
    assert data["crossings"] == 3
    assert {"id", "x", "y", "hidden"} <= set(data["points"][0])
    assert {"a", "b", "path"} <= set(data["lines"][0])
    assert {"id", "outer", "polygon", "points"} <= set(data["regions"][0])
    assert sum(r["outer"] for r in data["regions"]) == 1
    assert all((r["polygon"] is None) == r["outer"] for r in data["regions"])
    again_surface, again_drawing = export.from_json(data)
    assert again_surface.shadow == surface.shadow
    assert again_drawing == drawing


def test_bad_surface_files_are_refused(trefoil):
    surface, drawing = trefoil
    good = export.to_json(surface, drawing)
    moved = json.loads(json.dumps(good))
    moved["points"][0]["x"] = moved["points"][1]["x"]
    moved["points"][0]["y"] = moved["points"][1]["y"]
    cases = [
        [],
        {**good, "format": "x"},
        {**good, "crossings": 4},
        {**good, "shadow": {"link": [1, 0]}},
        {**good, "points": good["points"][:-1]},
        {**good, "rect": [0, 0, "w", 1]},
        {k: v for k, v in good.items() if k != "lines"},
        moved,
    ]
    for bad in cases:
        with pytest.raises(export.SurfaceFileError):
            export.from_json(bad)


def test_regions_gen_writes_json_and_png(tmp_path):
    out_json, out_png = tmp_path / "s.json", tmp_path / "s.png"
    assert (
        main(
            [
                "regions-gen",
                "--crossings",
                "7",
                "--seed",
                "4",
                "--json",
                str(out_json),
                "--png",
                str(out_png),
            ]
        )
        == 0
    )
    data = json.loads(out_json.read_text())
    assert data["crossings"] == 7 and len(data["points"]) == 9 and len(data["lines"]) == 14
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = tmp_path / "again.json"
    assert main(["regions-gen", "--from-json", str(out_json), "--json", str(again)]) == 0
    assert json.loads(again.read_text())["points"] == data["points"]
    assert main(["regions-gen", "--from-catalogue", "8_19", "--json", str(again)]) == 0
    assert json.loads(again.read_text())["crossings"] == 8


def test_same_seed_same_surface(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        assert main(["regions-gen", "--crossings", "5", "--seed", "9", "--json", str(path)]) == 0
    assert a.read_text() == b.read_text()


@pytest.mark.parametrize(
    "args",
    [
        ["--crossings", "2", "--json", "x.json"],
        ["--crossings", "16", "--json", "x.json"],
        ["--from-catalogue", "nope", "--json", "x.json"],
        ["--crossings", "5"],
        ["--from-json", "/nonexistent/file.json", "--json", "x.json"],
    ],
)
def test_bad_arguments_are_one_line_errors(args, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["regions-gen", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("twinfold regions-gen: error:")
    assert not (tmp_path / "x.json").exists()


def test_bad_json_file_is_a_one_line_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["regions-gen", "--from-json", str(bad), "--json", str(tmp_path / "o.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not valid JSON" in err[0]
    bad.write_text(json.dumps({"format": "twinfold-regions-surface/1", "shadow": {"link": [1]}}))
    assert main(["regions-gen", "--from-json", str(bad), "--json", str(tmp_path / "o.json")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_argument_parsing_errors_exit_2(capsys):
    assert main(["regions-gen", "--crossings", "many"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_catalogue_listing(capsys):
    assert main(["regions-gen", "--from-catalogue", "list"]) == 0
    out = capsys.readouterr().out
    assert "8_19" in out and "3_1" in out


def test_png_is_png_whatever_the_name_and_dash_is_stdout(tmp_path, capsysbinary):
    out = tmp_path / "x.txt"
    assert main(["regions-gen", "--crossings", "3", "--png", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    capsysbinary.readouterr()
    assert main(["regions-gen", "--crossings", "3", "--png", "-"]) == 0
    assert capsysbinary.readouterr().out.startswith(b"\x89PNG\r\n\x1a\n")
    assert main(["regions-gen", "--crossings", "3", "--png", "-", "--json", "-"]) == 2
