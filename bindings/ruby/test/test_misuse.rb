# frozen_string_literal: true

require_relative "helper"

# Misuse raises the Mvvm::Error subclass of the library's status, with the library's message.
class TestMisuse < MvvmTest
  def test_one_error_class_per_status_named_as_the_library_names_it
    expected = {
      1 => Mvvm::InvalidHandleError, 2 => Mvvm::WrongTypeError, 3 => Mvvm::NullPointerError,
      4 => Mvvm::InvalidArgumentError, 5 => Mvvm::UnknownNameError, 6 => Mvvm::ReadOnlyError,
      7 => Mvvm::TypeMismatchError, 8 => Mvvm::WrongLoopKindError, 9 => Mvvm::UnknownRequestError,
      10 => Mvvm::InternalError, 11 => Mvvm::LoopReleasedError, 12 => Mvvm::CommandError,
      13 => Mvvm::CancelledError, 14 => Mvvm::BadRegistrationError
    }
    expected.each do |status, klass|
      assert_same klass, Mvvm::Error.class_for(status)
      assert_operator klass, :<, Mvvm::Error
      assert_equal status, klass::STATUS
      assert_equal Catalog.native.status_name(status), klass::STATUS_NAME
    end
    assert_operator Mvvm::Error, :<, StandardError
    assert_same Mvvm::Error, Mvvm::Error.class_for(99)
    assert_equal "MVVM_UNKNOWN_STATUS", Catalog.native.status_name(99)
  end

  def test_a_closed_object_raises_invalid_handle
    vm = Catalog::SignUpViewModel.new(@loop)
    vm.close
    assert vm.closed?
    error = assert_raises(Mvvm::InvalidHandleError) { vm.user_id }
    assert_match(/not a live handle/, error.message)
    assert_equal [1, "MVVM_ERR_INVALID_HANDLE", "mvvm_get"], [error.status, error.status_name, error.function]
    assert_raises(Mvvm::InvalidHandleError) { vm.user_id = "abcdef" }
    assert_raises(Mvvm::InvalidHandleError) { vm.sign_up_tapped }
    assert_raises(Mvvm::InvalidHandleError) { vm.subscribe { flunk } }
    vm.close # twice: nothing
  end

  def test_unknown_names_raise_unknown_name_with_the_library_message
    vm = Catalog::SignUpViewModel.new(@loop)
    error = assert_raises(Mvvm::UnknownNameError) { vm[:nope] }
    assert_equal 'sign_up_view_model has no property named "nope"', error.message
    assert_raises(Mvvm::UnknownNameError) { vm[:nope] = "x" }
    assert_raises(Mvvm::UnknownNameError) { vm.perform(:nope) }
    assert_raises(Mvvm::UnknownNameError) { vm.child_object(:nope) }
    before = Mvvm::Callbacks.stats
    error = assert_raises(Mvvm::UnknownNameError) { vm.subscribe(:nope) { flunk } }
    assert_match(/nope/, error.message)
    after = Mvvm::Callbacks.stats
    assert_equal [1, before[:live], before[:unknown_destroys]],
                 [after[:registered] - before[:registered], after[:live], after[:unknown_destroys]],
                 "a failed subscribe runs its destroy (once) before it returns"
  end

  def test_setting_an_output_raises_read_only
    vm = Catalog::SignUpViewModel.new(@loop)
    error = assert_raises(Mvvm::ReadOnlyError) { vm[:is_sign_up_enabled] = true }
    assert_equal "sign_up_view_model.is_sign_up_enabled is read-only", error.message
    refute_respond_to vm, :is_sign_up_enabled=
    assert_respond_to vm, :user_id=
    assert_raises(Mvvm::ReadOnlyError) { Catalog::Counter.new(@loop)[:count] = 3 }
  end

  def test_values_of_the_wrong_type_raise_type_mismatch
    vm = Catalog::SignUpViewModel.new(@loop)
    error = assert_raises(Mvvm::TypeMismatchError) { vm.user_id = 5 }
    assert_equal "sign_up_view_model.user_id is of type string, not int", error.message
    assert_raises(Mvvm::TypeMismatchError) { vm.agreed = "yes" }
    assert_raises(Mvvm::TypeMismatchError) { vm.agreed = 1.5 }
    error = assert_raises(Mvvm::TypeMismatchError) { vm.user_id = ["abcdef"] }
    assert_equal "sign_up_view_model.user_id is of type string, not array", error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { vm.agreed = nil }
    assert_equal "sign_up_view_model.agreed is of type bool, not optional: it cannot be null", error.message
    assert_raises(Mvvm::TypeMismatchError) { Catalog::TimerViewModel.new(@loop, Catalog::CountDownTimer.new(@loop, 1)).player.perform(:tapped, 1) }
    error = assert_raises(TypeError) { vm.user_id = Object.new }
    assert_match(/\AObject is no value of libmvvm/, error.message)
    assert_equal "", vm.user_id, "nothing changed"
  end

  def test_bad_arguments_raise_invalid_argument
    vm = Catalog::SignUpViewModel.new(@loop)
    error = assert_raises(Mvvm::InvalidArgumentError) { vm.user_id = "ab\xFFcd".b }
    assert_equal "sign_up_view_model.user_id: the bytes given for a string are not valid UTF-8", error.message
    player = Catalog::TimerViewModel.new(@loop, Catalog::CountDownTimer.new(@loop, 5)).player
    error = assert_raises(Mvvm::InvalidArgumentError) { player.tapped("jump") }
    assert_equal 'argument 1 of player_view_model.tapped (argument) cannot hold "jump": it is no case of Action: start, pause, stop', error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { Catalog::CountDownTimer.new(@loop, 0) }
    assert_equal "count_down_timer: full_count must be from 1 to 2147483647, got 0", error.message
    error = assert_raises(Mvvm::TypeMismatchError) { Catalog::CountDownTimer.new(@loop, "5") }
    assert_equal "argument 1 of count_down_timer (full_count) is of type int, not string", error.message
    assert_raises(Mvvm::InvalidArgumentError) { @loop.advance(-1) }
    assert_equal 0, @loop.now
  end

  def test_models_of_the_wrong_class_or_loop
    error = assert_raises(Mvvm::WrongTypeError) { Catalog::CounterViewModel.new(@loop, Catalog::StopWatch.new(@loop)) }
    refute_empty error.message
    other = new_loop
    error = assert_raises(Mvvm::InvalidArgumentError) { Catalog::CounterViewModel.new(@loop, Catalog::Counter.new(other)) }
    refute_empty error.message
    error = assert_raises(Mvvm::TypeMismatchError) { Catalog::TimerViewModel.new(@loop, 5) }
    assert_equal "argument 1 of timer_view_model (timer) is object, not int", error.message
    assert_raises(TypeError) { Catalog::Counter.new(:not_a_loop) }
  end

  def test_loop_calls_of_the_wrong_kind_raise_wrong_loop_kind
    error = assert_raises(Mvvm::WrongLoopKindError) { @loop.dispatch }
    assert_equal "dispatch is not available on a virtual loop", error.message
    assert_raises(Mvvm::WrongLoopKindError) { @loop.fileno }
    assert_raises(Mvvm::WrongLoopKindError) { @loop.run_for(1) }
    manual = new_loop(:manual)
    assert_raises(Mvvm::WrongLoopKindError) { manual.advance(1) }
    thread = new_loop(:thread)
    assert_raises(Mvvm::WrongLoopKindError) { thread.advance(1) }
    assert_raises(Mvvm::WrongLoopKindError) { thread.dispatch }
    assert_raises(ArgumentError) { Mvvm::Loop.new(:sometimes, library: Catalog) }
  end

  def test_objects_of_a_released_loop_raise_loop_released_and_can_still_be_closed
    vm = Catalog::SignUpViewModel.new(@loop)
    counter = Catalog::Counter.new(@loop)
    events = Recorder.new
    subscription = vm.subscribe(&events)
    @loop.close
    refute subscription.active?, "closing the loop ended the subscription"
    error = assert_raises(Mvvm::LoopReleasedError) { vm.user_id }
    assert_equal "the object's loop was released", error.message
    assert_raises(Mvvm::LoopReleasedError) { vm.user_id = "abcdef" }
    assert_raises(Mvvm::LoopReleasedError) { counter.increment }
    assert_raises(Mvvm::LoopReleasedError) { vm.subscribe { flunk } }
    assert_raises(Mvvm::InvalidHandleError) { @loop.advance(1) }
    assert_raises(Mvvm::InvalidHandleError) { Catalog::Counter.new(@loop) }
    assert_equal false, subscription.unsubscribe
    assert_equal [], events.events
    vm.close
    counter.close
    assert_raises(Mvvm::InvalidHandleError) { vm.user_id }
  end

  def test_a_block_that_raises_raises_from_the_call_that_ran_it_and_the_others_still_run
    vm = Catalog::InputEchoViewModel.new(@loop)
    after = Recorder.new
    vm.subscribe(:label) { |_, value| raise ArgumentError, "bad #{value}" }
    vm.subscribe(:label, &after)
    error = assert_raises(ArgumentError) { vm.input = "x" }
    assert_equal "bad x", error.message
    assert_equal [[:label, "x"]], after.events
    assert_equal "x", vm.label
    vm.input = "x" # no change, no event: nothing pending any more
  end

  def test_advancing_the_loop_from_its_own_callback_is_refused
    vm = Catalog::StopWatchViewModel.new(@loop)
    vm.subscribe(:time) { @loop.advance(10) }
    vm.main_action
    error = assert_raises(Mvvm::InvalidArgumentError) { @loop.advance(10) }
    refute_empty error.message
    assert_equal "00:00:00.01", vm.time
  end

  def test_a_string_holding_nul_crosses_whole
    vm = Catalog::InputEchoViewModel.new(@loop)
    vm.input = "ab\0cd"
    assert_equal ["ab\0cd", "Your input is 'ab\0cd'!"], [vm.input, vm.message]
    assert_raises(ArgumentError) { vm["in\0put"] }
  end

  def test_subscribe_needs_a_block
    assert_raises(ArgumentError) { Catalog::Counter.new(@loop).subscribe(:count) }
  end
end
