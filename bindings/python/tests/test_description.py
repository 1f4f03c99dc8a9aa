"""The description (mvvm_classes, mvvm_describe) against its schema, docs/description.schema.json,
on the catalog (libmvvm.so), Tests/outside's libsample.so and the todo app's libtodo.so; and the
Python binding reading the fields the schema names rather than deciding them itself: "display"
(class and record names), "c_type" (a UInt64 read as the unsigned it is), "constructor" (which
argument a model was given as)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import mvvm
from mvvm._model import descriptions_json

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "docs" / "description.schema.json").read_text())
LIBRARIES = {"libmvvm.so": os.environ["MVVM_LIBRARY"], "libsample.so": os.environ["MVVM_SAMPLE_LIBRARY"],
             "libtodo.so": os.environ["MVVM_TODO_LIBRARY"]}


def library_path(name: str) -> str:
    path = Path(LIBRARIES[name])
    return str(path / "libmvvm.so" if path.is_dir() else path)


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_every_librarys_classes_follow_the_schema(name: str) -> None:
    described = json.loads(descriptions_json(Path(library_path(name))))
    jsonschema.validate(described, SCHEMA)
    assert described, "a library with no class"


def test_the_schema_refuses_what_the_library_must_not_say() -> None:
    """The schema is no formality: a class without its display name, a property without its
    c_type, a display that is no CamelCase identifier are refused."""
    good = json.loads(descriptions_json(Path(library_path("libmvvm.so"))))
    jsonschema.validate(good, SCHEMA)
    counter = next(c for c in good if c["class"] == "counter")
    for broken in (dict(counter, display="counter_x"), {k: v for k, v in counter.items() if k != "display"},
                   dict(counter, properties=[{k: v for k, v in p.items() if k != "c_type"} for p in counter["properties"]])):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate([broken], SCHEMA)


def test_an_objects_description_follows_the_schema_and_names_its_constructor(loop: mvvm.Loop) -> None:
    timer = mvvm.CountDownTimer(loop, 5)
    screen = mvvm.TimerViewModel(loop, timer)
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
    assert mvvm.WelcomeViewModel.c_class == "welcome_view_model"


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
def test_the_generators_reader_reads_every_library_as_the_packages_does(name: str) -> None:
    """The generator reads the description with a model of its own (mvvm_gen/model.py: it imports
    no binding); the two readers must not drift apart."""
    import dataclasses

    from mvvm._model import Library as PackageLibrary
    from mvvm_gen.model import Library as GeneratorLibrary

    raw = descriptions_json(Path(library_path(name)))
    package, generator = PackageLibrary.from_json(raw), GeneratorLibrary.from_json(raw)
    assert [dataclasses.asdict(c) for c in package.classes] == [dataclasses.asdict(c) for c in generator.classes]
