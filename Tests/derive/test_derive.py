"""Tests/derive from Python: one script over the view models, run on the library whose registration
was derived from their code and on the one registered by hand, through the ``mvvm`` package. Each
run checks what the app does and keeps what it saw (the descriptions, every event, result and
error, snapshots); the two transcripts must be the same.

    python3 Tests/derive/test_derive.py LIBDERIVED LIBHAND    (PYTHONPATH=bindings/python)

The last line is "derive python: N passed, N failed". Runs on the main thread: a virtual loop made
there serves the @MainActor settings."""

from __future__ import annotations

import datetime
import decimal
import json
import sys
import traceback
import uuid
from typing import Any, Callable, List

import mvvm
from mvvm._description import raw_descriptions


class Run:
    """One library's run: its transcript, and the checks that failed."""

    def __init__(self, library: Any) -> None:
        self.library = library
        self.lines: List[str] = []
        self.failures: List[str] = []

    def say(self, *parts: Any) -> None:
        self.lines.append(" ".join(repr(part) if not isinstance(part, str) else part for part in parts))

    def listen(self, who: str, obj: Any) -> None:
        obj.subscribe(None, lambda name, value: self.say(who, name, value))

    def outcome(self, what: str, action: Callable[[], Any]) -> Any:
        """What ``action`` gives, or the error it raises, said in the transcript."""
        try:
            result = action()
        except mvvm.MvvmError as error:
            self.say(what, "raised", type(error).__name__, error.message)
            return error
        self.say(what, "->", result)
        return result

    def finish(self, loop: Any, call: Any) -> Any:
        """Advances the loop (its clock standing) until the async call ends; its outcome."""
        for _ in range(100):
            if call.done():
                break
            loop.advance(0)
        return call.exception() or call.result()


def the_classes_are_described_alike(run: Run) -> None:
    described = raw_descriptions(run.library)
    run.say("classes", json.dumps(described, sort_keys=True))
    assert "receipt_scanner_view_model" in run.library.classes      # an internal class
    assert [c["class"] for c in described if c.get("main_actor")] == ["settings_view_model"]


def the_expense_list_adds_filters_and_deletes(run: Run) -> None:
    lib = run.library
    with lib.Loop.virtual() as loop:
        expenses = lib.ExpenseListViewModel(loop)
        run.listen("list", expenses)
        day = datetime.datetime(2023, 11, 14, 22, 13, 20, tzinfo=datetime.timezone.utc)
        dinner = expenses.add(title="Dinner", amount=decimal.Decimal("42.50"), category="food", on=day)
        run.say("added", dinner)
        assert dinner.id == uuid.UUID("00000000-0000-0000-0000-000000000001") and dinner.amount == decimal.Decimal("42.5")
        expenses.add("Train", decimal.Decimal("19.90"), "travel", day + datetime.timedelta(days=1))
        expenses.add("Hotel", decimal.Decimal("120"), "lodging", day + datetime.timedelta(days=1))
        refused = run.outcome("add blank", lambda: expenses.add("  ", decimal.Decimal(1), "food", day))
        assert isinstance(refused, mvvm.CommandError) and refused.message.endswith("an expense needs a title")
        assert isinstance(run.outcome("add taxi", lambda: expenses.add("Taxi", decimal.Decimal(1), "taxi", day)),
                          mvvm.InvalidArgumentError)
        assert expenses.total == decimal.Decimal("182.4") and expenses.visible_count == 3
        expenses.filter = "travel"
        assert expenses.visible_count == 1 and len(expenses.rows) == 1
        assert isinstance(run.outcome("filter bogus", lambda: setattr(expenses, "filter", "bogus")), mvvm.InvalidArgumentError)
        expenses.filter = None
        row = expenses.rows[1]
        run.listen("row", row)
        assert row.title == "Train" and row.amount_text == "19.9"
        row.toggle_flag()
        assert row.is_flagged
        row.delete_tapped()
        assert len(expenses.rows) == 2
        summary = expenses.summary
        assert summary.spent == decimal.Decimal("162.5")
        summary.budget = decimal.Decimal(100)
        assert summary.is_over_budget and summary.remaining == decimal.Decimal("-62.5")
        run.say("summary", summary.snapshot())
        missing = uuid.UUID("00000000-0000-0000-0000-0000000000ff")
        assert isinstance(run.outcome("delete missing", lambda: expenses.delete(id=missing)), mvvm.CommandError)
        expenses.selection = uuid.UUID("00000000-0000-0000-0000-000000000001")
        assert isinstance(run.outcome("set is_syncing", lambda: setattr(expenses, "is_syncing", True)), mvvm.ReadOnlyError)
        assert run.finish(loop, expenses.sync()) == 2
        expenses.search_text = "offline"
        failed = run.finish(loop, expenses.sync())
        run.say("offline sync", type(failed).__name__, getattr(failed, "message", failed))
        assert isinstance(failed, mvvm.CommandError) and expenses.error_message == "the server cannot be reached"
        run.say("list", expenses.snapshot())
        expenses.close()


def a_row_is_made_from_an_expense_record(run: Run) -> None:
    lib = run.library
    with lib.Loop.virtual() as loop:
        expense = lib.Expense(id=uuid.UUID(int=9), title="Museum", amount=decimal.Decimal(12),
                              date=datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc), category="other",
                              note="with the kids")
        row = lib.ExpenseRowViewModel(loop, expense)
        assert row.title == "Museum" and row.id == uuid.UUID(int=9)
        run.say("row", row.snapshot())
        row.close()


def the_trip_planner_is_observed(run: Run) -> None:
    lib = run.library
    with lib.Loop.virtual() as loop:
        trip = lib.TripPlannerViewModel(loop, "Lisbon", 3)
        assert trip.summary == "Lisbon, 3 nights" and trip.id == uuid.UUID("00000000-0000-0000-0000-0000000000aa")
        run.listen("trip", trip)
        trip.add_night()
        trip.place = lib.Place("Alfama", 38.71, -9.13)
        assert trip.place == lib.Place(name="Alfama", latitude=38.71, longitude=-9.13)
        assert run.finish(loop, trip.book()) == "Booked Lisbon, 4 nights"
        trip.destination = ""
        assert not trip.is_valid
        refused = run.finish(loop, trip.book())
        run.say("refused booking", type(refused).__name__, getattr(refused, "message", refused))
        assert isinstance(refused, mvvm.CommandError)
        run.say("trip", trip.snapshot())
        trip.close()


def the_settings_live_on_the_main_actor(run: Run) -> None:
    lib = run.library
    with lib.Loop.virtual() as loop:
        settings = lib.SettingsViewModel(loop)
        run.listen("settings", settings)
        settings.currency = "USD"
        assert settings.summary == "USD, reminders on"
        settings.reminder_priority = 2
        assert isinstance(run.outcome("priority 7", lambda: setattr(settings, "reminder_priority", 7)), mvvm.InvalidArgumentError)
        assert isinstance(run.outcome("url", lambda: setattr(settings, "server_url", "no scheme")), mvvm.InvalidArgumentError)
        settings.reset()
        assert settings.currency == "EUR"
        assert run.finish(loop, settings.sync()) is False
        assert settings.last_synced == datetime.datetime(2023, 11, 14, 22, 13, 20, tzinfo=datetime.timezone.utc)
        run.say("settings", settings.snapshot())
        settings.close()


def the_receipt_scanner_reads_a_receipt(run: Run) -> None:
    lib = run.library
    with lib.Loop.virtual() as loop:
        scanner = lib.ReceiptScannerViewModel(loop)
        assert scanner.scan("Cafe\nCoffee\n3.50") == 3
        assert scanner.result == lib.ScanResult("Cafe", decimal.Decimal("3.5"), 3)
        run.say("scanner", scanner.snapshot())
        scanner.close()


TESTS = [the_classes_are_described_alike, the_expense_list_adds_filters_and_deletes, a_row_is_made_from_an_expense_record,
         the_trip_planner_is_observed, the_settings_live_on_the_main_actor, the_receipt_scanner_reads_a_receipt]


def main(paths: List[str]) -> int:
    passed = failed = 0
    transcripts = []
    for path in paths:
        run = Run(mvvm.load(path))
        for test in TESTS:
            run.say("==", test.__name__)
            try:
                test(run)
                passed += 1
            except Exception:  # a failed check or an unexpected error: the test fails, the others run
                failed += 1
                print("FAIL %s on %s\n%s" % (test.__name__, path, traceback.format_exc()))
        transcripts.append(run.lines)
    if transcripts[0] == transcripts[1]:
        passed += 1
        print("the two libraries behaved the same (%d lines of transcript)" % len(transcripts[0]))
    else:
        failed += 1
        import difflib
        print("FAIL the two libraries behaved differently:")
        sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(transcripts[0], transcripts[1], paths[0], paths[1], n=1, lineterm=""))
    print("derive python: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:3]))
