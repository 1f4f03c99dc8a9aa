"""The description (mvvm_classes, mvvm_describe) against its schema, docs/description.schema.json,
on the catalog (libcatalog.so), Tests/outside's libsample.so and the todo app's libtodo.so; and the
Python binding reading the fields the schema names rather than deciding them itself: "display"
(class and record names), "c_type" (a UInt64 read as the unsigned it is), "constructor" (which
argument a model was given as)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import mvvm
from mvvm_gen.model import descriptions_json
from libraries import catalog, library_path as given_path

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "docs" / "description.schema.json").read_text())
#: The libraries described, by file name: the variable naming each.
LIBRARIES = {"libcatalog.so": "MVVM_CATALOG_LIBRARY", "libsample.so": "MVVM_SAMPLE_LIBRARY",
             "libtodo.so": "MVVM_TODO_LIBRARY"}


def library_path(name: str) -> str:
    return given_path(LIBRARIES[name])


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_every_librarys_classes_follow_the_schema(name: str) -> None:
    described = json.loads(descriptions_json(Path(library_path(name))))
    jsonschema.validate(described, SCHEMA)
    assert described, "a library with no class"


def test_the_schema_refuses_what_the_library_must_not_say() -> None:
    """The schema is no formality: a class without its display name, a property without its
    c_type, a display that is no CamelCase identifier are refused."""
    good = json.loads(descriptions_json(Path(library_path("libcatalog.so"))))
    jsonschema.validate(good, SCHEMA)
    counter = next(c for c in good if c["class"] == "counter")
    for broken in (dict(counter, display="counter_x"), {k: v for k, v in counter.items() if k != "display"},
                   dict(counter, properties=[{k: v for k, v in p.items() if k != "c_type"} for p in counter["properties"]])):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate([broken], SCHEMA)


def test_an_objects_description_follows_the_schema_and_names_its_constructor(loop: mvvm.Loop) -> None:
    timer = catalog.CountDownTimer(loop, 5)
    screen = catalog.TimerViewModel(loop, timer)
    described: Any = screen.describe()
    jsonschema.validate(described, SCHEMA)
    assert described["constructor"] == "new"
    child = screen.display
    assert child.describe()["constructor"] is None, "a child is made by its parent"
    sample = mvvm.load(library_path("libsample.so"))
    with sample.Loop.virtual() as sample_loop:
        odometer = sample.Odometer(sample_loop, reading=5)
        assert odometer.describe()["constructor"] == "new_with_reading"
        assert sample.Odometer(sample_loop).describe()["constructor"] == "new"


def test_classes_and_records_are_named_by_their_display_names() -> None:
    for name in LIBRARIES:
        library = mvvm.load(library_path(name))
        for described in json.loads(descriptions_json(Path(library_path(name)))):
            assert library.classes[described["class"]].__name__ == described["display"]
            for record in described["records"].values():
                assert library.records[record["name"]].__name__ == record["display"]
    sample = mvvm.load(library_path("libsample.so"))
    assert sample.classes["meter"] is sample.Odometer, "display: chose Odometer for Swift's Meter"
    assert "Meter" not in sample.names
    assert catalog.WelcomeViewModel.c_class == "welcome_view_model"


def test_a_uint64_above_int64_max_reads_as_the_same_non_negative_number() -> None:
    sample = mvvm.load(library_path("libsample.so"))
    with sample.Loop.virtual() as sample_loop:
        odometer = sample.Odometer(sample_loop)
        assert odometer.reading == 2**63
        assert odometer.ahead(2**62) == 2**63 + 2**62
        assert odometer.ahead(2**64 - 2**63) == 0, "wraps past UInt64.max, as the Swift code does"
        odometer.reading = 2**64 - 1
        assert (odometer.reading, mvvm.get(odometer, "reading"), odometer.snapshot()) == \
            (2**64 - 1, 2**64 - 1, {"reading": 2**64 - 1})
        seen = []
        odometer.subscribe("reading", lambda name, value: seen.append(value))
        odometer.reading = 2**63 + 1
        sample_loop.advance(0)
        assert seen[-1] == 2**63 + 1


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_the_package_builds_every_library_from_the_generators_model(name: str) -> None:
    """One reader of the description in the Python tree (mvvm_gen/model.py, which imports no
    binding): the package's classes are made from the very model the generator renders the typed
    surfaces from, read from the same description."""
    import dataclasses

    from mvvm_gen.model import Class, Library as Model

    library = mvvm.load(library_path(name))
    read = library._described().model
    assert type(read) is Model
    assert [dataclasses.asdict(c) for c in read.classes] == \
        [dataclasses.asdict(c) for c in Model.from_json(descriptions_json(Path(library_path(name)))).classes]
    for c_name, cls in library.classes.items():
        assert type(cls._model) is Class and cls._model.name == c_name
