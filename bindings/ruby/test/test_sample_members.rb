# frozen_string_literal: true

require_relative "helper"

# A view model's members win over the bindings' own methods: Tests/outside's Dialog has members
# named close, closed, subscribe, unsubscribe, get, set, send, describe, description, snapshot,
# handle, loop, id, class, bind and move(from, to). The bindings' own API stays reachable as
# module functions of Mvvm; a Ruby keyword or core method takes a trailing underscore.
class TestSampleMembers < SampleTest
  def dialog
    @sample::Dialog.new(@loop)
  end

  def test_properties_by_their_own_names
    d = dialog
    assert_equal ["A dialog", false, false, 7, "main", 42, "modal", []],
                 [d.description, d.closed, d.closed?, d.handle, d.loop, d.id, d.class_, d.log]
    d.description = "Save changes?"
    d.loop = "background"
    d.class_ = "sheet"
    assert_equal ["Save changes?", "background", "sheet"], [d.description, d.loop, d.class_]
    assert_equal ["sheet", 7], [d[:class], d[:handle]], "[] takes the library's names"
    assert_same @sample::Dialog, d.class, "class is Ruby's own"
    assert_equal "Save changes?", Mvvm.get(d, :description)
  end

  def test_commands_by_their_own_names
    d = dialog
    d.close
    assert_equal true, d.closed?
    refute Mvvm.closed?(d), "the command ran: the object is still open"
    d.subscribe
    d.unsubscribe
    d.get
    d.set
    d.describe
    d.snapshot
    d.move(from: 1, to: 2)
    d.move(3, 4)
    assert_equal %w[close subscribe unsubscribe get set describe snapshot] + ["move 1 2", "move 3 4"], d.log
  end

  def test_send_and_class_take_a_trailing_underscore_and_stay_ruby_s
    d = dialog
    bound = Recorder.new
    Mvvm.subscribe(d, :bind, &bound)
    assert_same d, d.send_("hello")
    d.send_(text: "again")
    assert_equal [[:bind, "hello"], [:bind, "again"]], bound.events
    assert_equal ["send hello", "send again"], d.log
    assert_equal "modal", d.send(:class_), "Object#send is Ruby's"
    refute_respond_to d, :class_?
    assert_respond_to d, :class_=
  end

  def test_the_bindings_own_api_through_module_functions
    d = dialog
    assert_kind_of Integer, Mvvm.handle(d)
    refute_equal 7, Mvvm.handle(d)
    assert_same @loop, Mvvm.loop_of(d)
    assert_equal "dialog", Mvvm.class_name(d)
    assert_equal "dialog", Mvvm.describe(d)["class"]
    assert_equal "modal", Mvvm.snapshot(d)["class"]
    Mvvm.set(d, :class, "popover")
    assert_equal "popover", d.class_
    Mvvm.call(d, :close)
    assert_equal ["close"], d.log
    events = Recorder.new
    subscription = Mvvm.subscribe(d, :description, &events)
    d.description = "x"
    subscription.unsubscribe
    d.description = "y"
    assert_equal [[:description, "x"]], events.events
    Mvvm.close(d)
    assert Mvvm.closed?(d)
    assert_raises(Mvvm::InvalidHandleError) { d.description }
  end

  def test_open_with_a_block_closes_the_object_not_the_dialog
    kept = @sample::Dialog.open(@loop) { |d| d }
    assert Mvvm.closed?(kept)
  end

  def test_the_class_and_its_signatures_use_the_same_names
    methods = @sample::Dialog.instance_methods(false)
    assert_includes methods, :class_
    assert_includes methods, :send_
    assert_includes methods, :close
    refute_includes methods, :class
    refute_includes methods, :send
    assert_equal "class_", Mvvm::Names.ruby("class")
    assert_equal "loop", Mvvm::Names.ruby("loop")
    assert_equal "class", Mvvm::Names.library("class_")
    assert_equal "loop_", Mvvm::Names.library("loop_"), "only a reserved name loses its underscore"
  end
end
