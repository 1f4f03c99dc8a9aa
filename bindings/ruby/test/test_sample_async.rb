# frozen_string_literal: true

require_relative "helper"

# Async commands (asyncCommand: a Swift `async` function) from Ruby, with Tests/outside's
# libsample.so: Profile.load(count) adds a tag a second of the loop's time and gives the tags
# (it throws for a negative count), Profile.ping gives the number of saves without suspending.
#
# The method starts the call (mvvm_call_async) and returns an Mvvm::Call; its block runs once,
# with (result, nil) or (nil, error): on a virtual loop exactly when an advance reaches the
# call's end; a throwing command ends it with Mvvm::CommandError; cancel, closing the object and
# closing the loop end it with Mvvm::CancelledError, each call once. The helper's teardown checks
# that the library ran every call's destroy function exactly once.
class TestSampleAsync < SampleTest
  # Records each end of a call: [result, error, the loop's time then (nil once it is closed)].
  class Ends
    attr_reader :seen

    def initialize(loop)
      @loop = loop
      @seen = []
    end

    def to_proc
      proc { |result, error| @seen << [result, error, @loop.closed? ? nil : @loop.now] }
    end
  end

  def profile(loop = @loop)
    @sample::Profile.new(loop)
  end

  def test_an_async_command_is_described_as_one
    command = @sample::Profile.commands[:load]
    assert_equal [true, [:count], :array], [command.async, command.arguments, command.result]
    assert_equal [true, :int], [@sample::Profile.commands[:ping].async, @sample::Profile.commands[:ping].result]
  end

  def test_a_call_ends_exactly_when_the_virtual_time_reaches_its_end
    p = profile
    tags = Recorder.new
    p.subscribe(:tags, &tags)
    ends = Ends.new(@loop)
    live = Mvvm::Callbacks.stats[:live]
    tags_at_end = nil
    call = p.load(3) do |result, error|
      ends.to_proc.call(result, error)
      tags_at_end = p.tags.size
    end
    assert_instance_of Mvvm::Call, call
    refute call.done?
    assert_kind_of Integer, call.handle
    assert_equal [p, :load], [call.object, call.name]
    assert_equal live + 1, Mvvm::Callbacks.stats[:live] # held until its destroy function runs
    assert_match(/#<Mvvm::Call profile.load running>/, call.inspect)
    @loop.advance(999)
    assert_equal [[], false], [tags.values, call.done?]
    @loop.advance(1)
    assert_equal [[%w[t0]], false], [tags.values, call.done?]
    @loop.advance(1999)
    assert_equal [[%w[t0], %w[t0 t1]], false], [tags.values, call.done?]
    @loop.advance(1) # 3000 ms: its last change notified first, then its end, once
    assert_equal %w[t0 t1 t2], tags.values.last
    assert_equal 3, tags_at_end
    assert_equal [[%w[t0 t1 t2], nil, 3000]], ends.seen
    assert call.done?
    assert_equal %w[t0 t1 t2], call.value
    assert_equal %w[t0 t1 t2], call.result
    assert_nil call.error
    assert_nil call.handle
    assert_equal live, Mvvm::Callbacks.stats[:live] # its destroy function ran: nothing of it is held
    refute call.cancel # ended: nothing to cancel
    @loop.advance(5000)
    assert_equal 1, ends.seen.size
    assert_equal '#<Mvvm::Call profile.load returned ["t0", "t1", "t2"]>', call.inspect
  end

  def test_a_command_that_does_not_suspend_ends_before_its_method_returns
    p = profile
    ends = Ends.new(@loop)
    pinged = p.ping(&ends)
    assert_equal [[0, nil, 0]], ends.seen # the block ran inside the method
    assert pinged.done?
    assert_equal 0, pinged.value
    empty = p.load(count: 0) # by keyword, as a plain command
    assert empty.done?
    assert_equal [], empty.value
    assert_raises(Mvvm::CommandError) { p.move_tag(0, 1) } # a plain command counts a save
    assert_equal 1, p.ping.value
    assert_equal 1, p.saves
  end

  def test_a_throwing_command_ends_with_command_error
    p = profile
    ends = Ends.new(@loop)
    failing = p.load(-1, &ends)
    assert failing.done?
    assert_equal 1, ends.seen.size
    result, error, = ends.seen.first
    assert_nil result
    assert_instance_of Mvvm::CommandError, error
    assert_same error, failing.error
    assert_equal "profile.load failed: cannot load -1 tags", error.message
    assert_equal [Mvvm::ABI::ERR_COMMAND_FAILED, "MVVM_ERR_COMMAND_FAILED", "mvvm_call_async"],
                 [error.status, error.status_name, error.function]
    assert_same error, assert_raises(Mvvm::CommandError) { failing.value }
    assert_equal "#<Mvvm::Call profile.load raised Mvvm::CommandError>", failing.inspect
  end

  def test_a_call_that_cannot_start_raises_at_once
    p = profile
    live = Mvvm::Callbacks.stats[:live]
    ran = false
    wrong = assert_raises(Mvvm::TypeMismatchError) { p.load("3") { ran = true } } # the library's judgement
    assert_equal "mvvm_call_async", wrong.function
    assert_includes wrong.message, "count"
    assert_raises(Mvvm::InvalidArgumentError) { p.load { ran = true } } # count missing
    assert_raises(Mvvm::InvalidArgumentError) { p.load(1, counts: 2) { ran = true } } # no argument counts
    assert_raises(TypeError) { p.load(Object.new) { ran = true } } # no value Ruby can pass
    synchronous = assert_raises(Mvvm::InvalidArgumentError) { Mvvm.call(p, :load, 1) }
    assert_includes synchronous.message, "mvvm_call_async" # the library refuses a plain call of it
    refute ran
    assert_equal [live, []], [Mvvm::Callbacks.stats[:live], p.tags] # nothing started, nothing held
    Mvvm.close(p)
    assert_raises(Mvvm::InvalidHandleError) { p.load(1) { ran = true } }
    refute ran
    assert_equal live, Mvvm::Callbacks.stats[:live]
  end

  def test_cancel_ends_the_call_now_with_cancelled_error
    p = profile
    ends = Ends.new(@loop)
    call = p.load(5, &ends)
    @loop.advance(1000)
    assert_equal %w[t0], p.tags
    assert_equal true, call.cancel # the block runs now, on this thread
    assert_equal 1, ends.seen.size
    result, error, at = ends.seen.first
    assert_equal [nil, 1000], [result, at]
    assert_instance_of Mvvm::CancelledError, error
    assert_equal [Mvvm::ABI::ERR_CANCELLED, "mvvm_call_async"], [error.status, error.function]
    assert_includes error.message, "profile.load was cancelled"
    assert call.done?
    assert_raises(Mvvm::CancelledError) { call.value }
    assert_equal false, call.cancel
    assert_equal "#<Mvvm::Call profile.load cancelled>", call.inspect
    @loop.advance(10_000) # its task was cancelled: no more tags, no second end
    assert_equal [%w[t0], 1], [p.tags, ends.seen.size]
  end

  def test_cancel_before_any_time_passed
    p = profile
    ends = Ends.new(@loop)
    call = p.load(2, &ends)
    assert call.cancel # suspended at its first sleep: nothing added yet
    assert_equal [[nil, Mvvm::CancelledError, 0]], ends.seen.map { |r, e, t| [r, e.class, t] }
    @loop.advance(3000)
    assert_equal [[], 1], [p.tags, ends.seen.size]
  end

  def test_closing_the_object_cancels_its_outstanding_calls_and_closing_the_loop_the_rest
    loop = new_loop(:virtual, library: @sample)
    first_profile = profile(loop)
    other = profile(loop)
    ends = Ends.new(loop)
    first = first_profile.load(5, &ends)
    second = first_profile.load(5, &ends)
    third = other.load(5, &ends)
    loop.advance(1500)
    assert_equal [], ends.seen
    Mvvm.close(first_profile)
    assert_equal 2, ends.seen.size
    [first, second].each do |call|
      assert call.done?
      assert_instance_of Mvvm::CancelledError, call.error
      assert_includes call.error.message, "its object was released"
    end
    assert_equal [[nil, Mvvm::CancelledError, 1500]] * 2, ends.seen.map { |r, e, t| [r, e.class, t] }
    refute third.done?
    loop.close
    assert third.done?
    assert_instance_of Mvvm::CancelledError, third.error
    assert_equal 3, ends.seen.size
    assert_equal [nil, third.error, nil], ends.seen.last # ended while the loop was being closed
    refute third.cancel
    assert_equal 0, Mvvm::Callbacks.stats[:live] - @stats_before[:live] # each destroyed once
  end

  def test_without_a_block_the_call_gives_its_value_once_done
    p = profile
    call = p.load(2)
    error = assert_raises(Mvvm::NotDoneError) { call.value }
    assert_nil error.status
    assert_equal "profile.load has not ended yet: run its loop (advance, dispatch) until it does", error.message
    assert_nil call.error
    @loop.advance(2000)
    assert_equal %w[t0 t1], call.value
    assert_equal %w[t0 t1], Mvvm.call_async(p, :load, count: 0).value
  end

  def test_a_running_call_keeps_its_object_alive
    call = profile.load(2)
    GC.start
    @loop.advance(2000)
    assert_equal %w[t0 t1], call.value
  end

  def test_an_exception_in_the_block_is_raised_from_the_call_that_ended_it
    p = profile
    calls = 0
    call = p.load(1) do
      calls += 1
      raise ArgumentError, "from the block"
    end
    error = assert_raises(ArgumentError) { @loop.advance(1000) }
    assert_equal "from the block", error.message
    assert_equal [1, true, %w[t0]], [calls, call.done?, call.value]
    @loop.advance(1000) # nothing pending any more
    error = assert_raises(ArgumentError) { p.ping { raise ArgumentError, "at once" } }
    assert_equal "at once", error.message
  end

  def test_a_call_on_a_manual_loop_ends_inside_run_for
    loop = new_loop(:manual, library: @sample)
    ends = Ends.new(loop)
    call = profile(loop).load(1, &ends)
    loop.run_for(100) until call.done? || loop.now > 30_000
    assert_equal [[%w[t0], nil]], ends.seen.map { |r, e, _| [r, e] }
    assert_operator ends.seen.first[2], :>=, 1000
  end

  def test_objects_of_a_thread_loop_refuse_async_calls
    loop = new_loop(:thread, library: @sample)
    error = assert_raises(Mvvm::UnsupportedError) { profile(loop).load(1) { nil } }
    assert_match(/thread loop/, error.message)
  end
end
