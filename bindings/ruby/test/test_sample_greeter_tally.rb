# frozen_string_literal: true

# The classes of Tests/outside's libsample.so (MVVM_SAMPLE_LIBRARY), loaded beside the catalog's:
# a package outside libmvvm whose classes (greeter: an ObservableObject; tally: an
# @Observable class) no Ruby was written for. Checks they are usable from Ruby as they are
# described, and the notification rules of docs/notifications.md.
require_relative "helper"

class TestGreeterTally < SampleTest
  # Records [name, value, what the getters say inside the callback] of every event of `object`.
  def record(object, &reader)
    events = []
    object.subscribe { |name, value| events << [name, value, reader.call] }
    events
  end

  # --- the classes --------------------------------------------------------------------------------

  def test_the_outside_classes_are_ruby_classes_named_as_in_swift
    assert_same @sample::Greeter, @sample.class_for("greeter")
    assert_same @sample::Tally, @sample.class_for("tally")
    assert_equal "Greets whoever the view names.", @sample::Greeter.doc
    assert_equal "Who to greet.", @sample::Greeter.doc(:name)
    assert_equal "Each greeting said.", @sample::Greeter.doc(:greeted)
    assert_equal "Adds step that many times, as one change.", @sample::Tally.doc(:add_many)
    assert_equal({ name: :string, greeting: :string, greet_count: :int },
                 @sample::Greeter.properties.transform_values(&:type))
    assert_equal({ greeted: :string }, @sample::Greeter.signals)
    assert_equal({ add: [], add_many: [:argument], reset: [] }, @sample::Tally.commands.transform_values(&:arguments))
    assert_equal %i[total step title is_even], @sample::Tally.properties.keys
    assert_equal %i[step title], @sample::Tally.properties.values.select(&:writable?).map(&:name)
    refute @sample.classes.key?("sign_up_view_model"), "the sample does not carry the catalog"
  end

  # --- greeter: an ObservableObject ---------------------------------------------------------------

  def test_greeter_constructors
    assert_equal ["", "Hello!", 0], @sample::Greeter.new(@loop).then { |g| [g.name, g.greeting, g.greet_count] }
    assert_equal ["Ann", "Hello, Ann!"], @sample::Greeter.new(@loop, "Ann").then { |g| [g.name, g.greeting] }
    assert_equal "Hello, Bo!", @sample::Greeter.new(@loop, name: "Bo").greeting
    error = assert_raises(Mvvm::TypeMismatchError) { @sample::Greeter.new(@loop, 5) }
    assert_equal "argument 1 of greeter (name) is of type string, not int", error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { @sample::Greeter.new(@loop, "a", "b") }
    assert_match(/\Agreeter takes .*, not 2 arguments\z/, error.message)
  end

  def test_greeter_notifies_after_the_change_with_the_new_values
    greeter = @sample::Greeter.new(@loop)
    events = record(greeter) { [greeter.name, greeter.greeting] }
    greeter.name = "Bob"
    assert_equal [[:name, "Bob", ["Bob", "Hello, Bob!"]], [:greeting, "Hello, Bob!", ["Bob", "Hello, Bob!"]]], events
    events.clear
    greeter.name = "Bob"
    assert_equal [], events, "a set that changes nothing notifies nothing"
    greeter.name = ""
    assert_equal [[:name, "", ["", "Hello!"]], [:greeting, "Hello!", ["", "Hello!"]]], events
  end

  def test_greeter_greet_counts_and_signals_each_greeting
    greeter = @sample::Greeter.new(@loop, "Ann")
    events = record(greeter) { greeter.greet_count }
    greeted = Recorder.new
    greeter.subscribe(:greeted, &greeted)
    greeter.greet
    assert_equal [[:greet_count, 1, 1], [:greeted, "Hello, Ann!", 1]], events
    greeter.greet
    assert_equal [[:greeted, "Hello, Ann!"], [:greeted, "Hello, Ann!"]], greeted.events, "each signal is delivered"
    assert_equal 2, greeter.greet_count
  end

  def test_greeter_outputs_refuse_writes
    greeter = @sample::Greeter.new(@loop)
    refute_respond_to greeter, :greeting=
    refute_respond_to greeter, :greet_count=
    assert_respond_to greeter, :name=
    assert_raises(Mvvm::ReadOnlyError) { greeter[:greeting] = "Hi" }
    assert_raises(Mvvm::ReadOnlyError) { greeter[:greet_count] = 3 }
    assert_raises(Mvvm::TypeMismatchError) { greeter.name = 3 }
    error = assert_raises(Mvvm::InvalidArgumentError) { greeter.greet("x") }
    assert_equal "greeter.greet takes 0 arguments, not 1 argument", error.message
    assert_equal "Hello!", greeter.greeting
  end

  # --- tally: an @Observable class ----------------------------------------------------------------

  def test_tally_add_notifies_total_and_is_even_after_the_change
    tally = @sample::Tally.new(@loop, 3)
    assert_equal [3, 1, "Tally", false], [tally.total, tally.step, tally.title, tally.is_even?]
    events = record(tally) { [tally.total, tally.is_even] }
    tally.add
    assert_equal [[:total, 4, [4, true]], [:is_even, true, [4, true]]], events
  end

  def test_tally_add_many_notifies_total_once_with_the_final_value
    tally = @sample::Tally.new(@loop, 0)
    tally.step = 3
    events = record(tally) { tally.total }
    tally.add_many(5)
    assert_equal [[:total, 15, 15], [:is_even, false, 15]], events
    events.clear
    tally.step = 2
    tally.add_many(5) # 15 + 10: odd still, so is_even says nothing
    assert_equal [[:step, 2, 15], [:total, 25, 25]], events
    events.clear
    tally.add_many(0)
    assert_equal [], events
  end

  def test_tally_sets_that_change_nothing_notify_nothing
    tally = @sample::Tally.new(@loop, 2)
    events = record(tally) { nil }
    tally.step = 1
    tally.title = "Tally"
    assert_equal [], events
    tally.title = "Score"
    tally.title = "Score"
    assert_equal [[:title, "Score", nil]], events
    tally.reset
    tally.reset
    assert_equal [[:title, "Score", nil], [:total, 0, nil]], events, "2 to 0 keeps is_even; a second reset changes nothing"
  end

  def test_tally_is_even_follows_total
    tally = @sample::Tally.new(@loop, 0)
    evens = Recorder.new
    tally.subscribe(:is_even, &evens)
    seen = []
    [[:add], [:add], [:add_many, 3], [:reset], [:add_many, 2]].each do |command, *args|
      tally.public_send(command, *args)
      seen << [tally.total, tally.is_even]
    end
    assert_equal [[1, false], [2, true], [5, false], [0, true], [2, true]], seen
    assert_equal [false, true, false, true], evens.values
  end

  def test_tally_arguments_are_checked_by_the_library
    error = assert_raises(Mvvm::InvalidArgumentError) { @sample::Tally.new(@loop) }
    assert_equal "tally takes (start: int), not 0 arguments", error.message
    assert_raises(Mvvm::TypeMismatchError) { @sample::Tally.new(@loop, "1") }
    tally = @sample::Tally.new(@loop, start: 1)
    error = assert_raises(Mvvm::TypeMismatchError) { tally.add_many("2") }
    assert_equal "argument 1 of tally.add_many (argument) is of type int, not string", error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { tally.add_many(2**63) }
    assert_match(/\Aargument 1 of tally.add_many \(argument\) is out of range: 9223372036854775808/, error.message)
    assert_raises(Mvvm::ReadOnlyError) { tally[:total] = 5 }
    assert_raises(Mvvm::ReadOnlyError) { tally[:is_even] = true }
    refute_respond_to tally, :total=
    assert_equal 1, tally.total
  end
end
