# frozen_string_literal: true

require_relative "helper"

# The classes are made at run time from mvvm_classes: names, docs, constructors through
# mvvm_new_named, commands through mvvm_call_named (the library binds, converts and refuses the
# arguments), and host services through mvvm_service_new.
class TestClasses < MvvmTest
  def library_classes
    JSON.parse(Catalog.native.call_out_string(:mvvm_classes))
  end

  def test_every_class_of_the_library_is_a_ruby_class_named_by_its_display_name
    described = library_classes
    assert_equal described.map { |d| d["class"] }, Catalog.classes.keys
    described.each do |d|
      klass = Catalog.class_for(d["class"])
      assert_operator klass, :<, Mvvm::Base
      assert_same klass, Catalog.const_get(d["display"], false)
      assert_equal "Catalog::#{d['display']}", klass.name, "named under the constant the namespace is"
      assert_equal [d["class"], d["swift_name"], d["doc"]], [klass.c_name, klass.swift_name, klass.doc]
      assert_equal d, klass.description
      assert_same Catalog, klass.library
    end
    assert_same Catalog::SignUpViewModel, Catalog.class_for(:sign_up_view_model)
    # Its Swift name (WelcomeScreen) is no name of it: one name, the description's, in every binding.
    assert_equal "WelcomeScreen", Catalog::WelcomeViewModel.swift_name
    refute Catalog.const_defined?(:WelcomeScreen, false)
    assert_raises(NameError) { Catalog::NoSuchViewModel }
    assert_raises(KeyError) { Catalog.class_for("no_such_view_model") }
  end

  # No default namespace: Mvvm holds the binding's own types, and no library's class.
  def test_mvvm_names_no_class_of_a_library
    refute Mvvm.const_defined?(:SignUpViewModel, false)
    assert_raises(NameError) { Mvvm::SignUpViewModel }
    %i[classes class_for library library_path version].each { |call| refute_respond_to Mvvm, call }
    refute Object.const_defined?(:MVVM), "MVVM, the default namespace's second name, is gone"
  end

  def test_members_have_their_doc_strings
    assert_equal "The seconds it counts down from.", Catalog::CountDownTimer.doc(:full_count)
    assert_equal "Starts or resumes; does nothing while running.", Catalog::CountDownTimer.doc("start")
    assert_equal "\"<text> show!!\" for each tap.", Catalog::WelcomeViewModel.doc(:on_show_text)
    assert_equal "The random counter is seeded with `seed`, for repeatable pages.",
                 Catalog::CounterPageViewModel.doc(:new_with_seed)
    assert_match(/display_view_model/, Catalog::TimerViewModel.doc(:display))
    assert_nil Catalog::Counter.doc(:nope)
    assert_equal ["new", "new_with_service"], Catalog::SignUpViewModel.constructors.map { |c| c.name.to_s }
  end

  def test_readers_writers_and_commands_follow_the_description
    vm = Catalog::SignUpViewModel.new(@loop)
    Catalog::SignUpViewModel.properties.each_value do |p|
      assert_respond_to vm, p.name
      assert_equal p.writable?, vm.respond_to?(:"#{p.name}="), p.name
      assert_equal p.type == :bool, vm.respond_to?(:"#{p.name}?"), p.name
    end
    assert_respond_to vm, :sign_up_tapped
    error = assert_raises(Mvvm::InvalidArgumentError) { vm.sign_up_tapped(1) }
    assert_equal "sign_up_view_model.sign_up_tapped takes 0 arguments, not 1 argument", error.message
    assert_equal %i[argument], Catalog::PlayerViewModel.commands[:tapped].arguments
  end

  def test_the_library_chooses_the_constructor_positional_or_by_name
    assert_equal 7, Catalog::CountDownTimer.new(@loop, 7).full_count
    assert_equal 7, Catalog::CountDownTimer.new(@loop, full_count: 7).remaining_time
    first = Catalog::CounterPageViewModel.new(@loop, seed: 3).second_counter.tap(&:increment).count
    assert_equal first, Catalog::CounterPageViewModel.new(@loop, 3).second_counter.tap(&:increment).count
    error = assert_raises(Mvvm::InvalidArgumentError) { Catalog::CountDownTimer.new(@loop) }
    assert_equal "count_down_timer takes (full_count: int), not 0 arguments", error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { Catalog::CountDownTimer.new(@loop, 1, 2) }
    assert_equal "count_down_timer takes (full_count: int), not 2 arguments", error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { Catalog::CountDownTimer.new(@loop, seconds: 1) }
    assert_equal "count_down_timer takes (full_count: int), not 1 argument (named seconds)", error.message
    assert_raises(Mvvm::InvalidArgumentError) { Catalog::CountDownTimer.new(@loop, 1, full_count: 1) }
    error = assert_raises(Mvvm::InvalidArgumentError) { Catalog::CountDownTimer.new(@loop, 2**63) }
    assert_match(/\Aargument 1 of count_down_timer \(full_count\) is out of range: 9223372036854775808 /, error.message)
    # Above 2**63 - 1 an Integer goes as an unsigned; a uint64 argument takes an int's bits too.
    assert_equal draw_once(2**64 - 1), draw_once(-1)
    error = assert_raises(RangeError) { Catalog::RandomCounter.new(@loop, 2**64) }
    assert_match(/beyond what a C integer holds/, error.message)
    error = assert_raises(Mvvm::InvalidArgumentError) { Catalog::DisplayViewModel.new(@loop) }
    assert_match(/\Adisplay_view_model has no constructor/, error.message)
    timer = Catalog::CountDownTimer.new(@loop, 5)
    assert_same timer, Catalog::TimerViewModel.new(@loop, timer: timer).timer
    assert_same timer, Mvvm.argument(Catalog::TimerViewModel.new(@loop, timer), :timer)
  end

  def draw_once(seed)
    Catalog::RandomCounter.open(@loop, seed) { |counter| counter.increment.count }
  end

  def test_command_arguments_are_bound_and_converted_by_the_library
    player = Catalog::TimerViewModel.new(@loop, Catalog::CountDownTimer.new(@loop, 5)).player
    error = assert_raises(Mvvm::TypeMismatchError) { player.tapped(1) }
    assert_equal "argument 1 of player_view_model.tapped (argument) is of type string, not int", error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { player.tapped(nil) }
    assert_equal "argument 1 of player_view_model.tapped (argument) is of type string, not optional: it cannot be null",
                 error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { player.tapped }
    assert_equal "argument 1 of player_view_model.tapped (argument) is missing", error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { player.tapped(argument: "start", x: 1) }
    assert_equal 'player_view_model.tapped has no argument named "x"', error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { Catalog::Counter.new(@loop).increment(1) }
    assert_equal "counter.increment takes 0 arguments, not 1 argument", error.message
    player.tapped(:start)
    @loop.advance(0)
    assert_equal true, player.is_play_timer
    player.tapped(argument: "pause")
    @loop.advance(1000)
    assert_equal false, player.is_play_timer
  end

  # --- host services ----------------------------------------------------------------------------

  def filled_sign_up(**service)
    Catalog::SignUpViewModel.new(@loop, **service).tap do |vm|
      vm.user_id = "abcdef"
      vm.password = vm.confirm_password = "12345678"
      vm.agreed = true
    end
  end

  def test_a_sign_up_service_is_asked_with_the_user_id_and_may_read_the_password
    asked = []
    vm = filled_sign_up(service: lambda do |request|
      asked << [request.argument, request.view_model.password, request.view_model]
      request.complete(false)
    end)
    vm.sign_up_tapped
    assert_equal [["abcdef", "12345678", vm]], asked
    assert_equal false, vm.is_completion_alert_presented, "the service said no"
  end

  def test_a_request_answered_later_once
    requests = []
    service = Catalog.service { |request| requests << request }
    vm = filled_sign_up(service: service)
    service.close
    vm.sign_up_tapped
    assert_equal 1, requests.size
    request = requests.first
    refute request.done?
    assert_equal false, vm.is_completion_alert_presented
    assert_raises(Mvvm::TypeMismatchError) { request.complete("yes") }
    refute request.done?, "a wrong answer leaves it open"
    request.complete(true)
    assert request.done?
    assert_equal true, vm.is_completion_alert_presented
    assert_raises(Mvvm::UnknownRequestError) { request.complete(true) }
  end

  def test_a_request_answered_soon_from_another_thread_is_applied_by_the_loop
    requests = []
    vm = filled_sign_up(service: ->(request) { requests << request })
    vm.sign_up_tapped
    request = requests.first
    assert_raises(Mvvm::TypeMismatchError) { request.complete_soon("yes") }
    refute request.done?, "a wrong answer leaves it open"
    Thread.new { request.complete_soon(true) }.join
    assert request.done?
    assert_equal false, vm.is_completion_alert_presented, "not applied on the other thread"
    @loop.advance(0)
    assert_equal true, vm.is_completion_alert_presented
  end

  def test_a_cancelled_request_cannot_be_answered
    requests = []
    vm = filled_sign_up(service: ->(request) { requests << request })
    vm.sign_up_tapped
    requests.first.cancel
    assert requests.first.done?
    requests.first.cancel # twice: nothing
    assert_raises(Mvvm::UnknownRequestError) { requests.first.complete(true) }
    assert_equal false, vm.is_completion_alert_presented
  end

  def test_a_welcome_api_given_as_a_block
    requests = []
    vm = Catalog::WelcomeViewModel.new(@loop) { |request| requests << request }
    welcomes = Recorder.new
    vm.subscribe(:on_show_welcome, &welcomes)
    vm.view_did_load
    assert_equal [nil], requests.map(&:argument)
    requests.first.complete("Hello")
    assert_equal ["Hello"], welcomes.values
  end

  def test_a_service_lives_while_a_view_model_made_with_it_lives
    answers = 0
    service = Mvvm::Service.new(library: Catalog) { |request| answers += 1; request.complete(true) }
    first = filled_sign_up(service: service)
    second = filled_sign_up(service: service)
    service.close
    assert service.active?, "its view models still hold it"
    first.sign_up_tapped
    first.close
    assert service.active?
    second.sign_up_tapped
    assert_equal [2, true], [answers, second.is_completion_alert_presented]
    second.close
    refute service.active?, "the library let go of it: its block is dropped"
  end

  def test_a_service_given_to_a_constructor_ends_with_its_view_model
    before = Mvvm::Callbacks.stats[:live]
    vm = filled_sign_up(service: ->(request) { request.complete(true) })
    assert_equal before + 1, Mvvm::Callbacks.stats[:live]
    vm.close
    assert_equal before, Mvvm::Callbacks.stats[:live]
  end

  def test_an_exception_in_a_service_is_raised_from_the_call_that_asked
    vm = filled_sign_up(service: ->(_request) { raise ArgumentError, "no service today" })
    error = assert_raises(ArgumentError) { vm.sign_up_tapped }
    assert_equal "no service today", error.message
  end

  def test_services_are_checked_and_refused_on_thread_loops
    error = assert_raises(Mvvm::TypeMismatchError) { Catalog::SignUpViewModel.new(@loop, service: 5) }
    assert_equal "argument 1 of sign_up_view_model (service) is service, not int", error.message
    assert_raises(ArgumentError) { Mvvm::Service.new(library: Catalog) }
    error = assert_raises(ArgumentError) { Mvvm::Service.new { |request| request.complete(true) } }
    assert_match(/\Aa service belongs to a library: give library: Mvvm\.load\(path\)/, error.message)
    assert_raises(Mvvm::UnsupportedError) { Catalog::SignUpViewModel.new(new_loop(:thread), service: ->(_) {}) }
  end
end
