# frozen_string_literal: true

require_relative "helper"

# The catalog's scenarios on a virtual loop, with exact values.
class TestCatalog < MvvmTest
  # --- timer ------------------------------------------------------------------------------------

  def test_timer_counts_down_five_seconds_to_one_alert
    timer = Catalog::CountDownTimer.new(@loop, 5)
    vm = Catalog::TimerViewModel.new(@loop, timer)
    display = vm.display
    player = vm.player
    assert_instance_of Catalog::DisplayViewModel, display
    assert_instance_of Catalog::PlayerViewModel, player
    assert_same display, vm.display
    alerts = Recorder.new
    vm.subscribe(:is_show_alert, &alerts)
    assert_equal [false, false, false, 5], [vm.is_show_alert, player.is_play_timer, player.is_stop_enabled, display.remaining_time]

    player.tapped("start")
    assert_equal false, timer.is_doing, "a tap acts on the next dispatch"
    @loop.advance(0)
    assert_equal true, timer.is_doing?
    assert_equal [true, false], [player.is_play_timer?, player.is_stop_enabled?]

    @loop.advance(4999)
    assert_equal 1, display.remaining_time
    assert_equal [4, 1], [timer.count, timer.remaining_time]
    assert_equal true, player.is_stop_enabled
    assert_equal false, vm.is_show_alert
    assert_equal [], alerts.events

    @loop.advance(1)
    assert_equal 5000, @loop.now
    assert_equal true, vm.is_show_alert?
    assert_equal [[:is_show_alert, true]], alerts.events
    assert_equal [0, 5, 5, false], [timer.count, timer.remaining_time, display.remaining_time, timer.is_doing]
    assert_equal [false, false], [player.is_play_timer, player.is_stop_enabled]

    @loop.advance(10_000) # it stays stopped: one alert only
    assert_equal [0, false], [timer.count, timer.is_doing]
    assert_equal 1, alerts.count

    vm.is_show_alert = false # the view dismisses it
    assert_equal false, vm.is_show_alert
    assert_equal [[:is_show_alert, true], [:is_show_alert, false]], alerts.events
  end

  def test_timer_taps_are_throttled_keeping_the_first
    timer = Catalog::CountDownTimer.new(@loop, 5)
    vm = Catalog::TimerViewModel.new(@loop, timer)
    player = vm.player
    player.tapped("start") # t = 0: acts on the next dispatch
    @loop.advance(0)
    assert_equal true, timer.is_doing
    @loop.advance(300)
    player.tapped("pause") # t = 300: waits for the second to be over
    @loop.advance(200)
    player.tapped("stop") # t = 500: dropped, one is waiting
    @loop.advance(499)
    assert_equal [999, true], [@loop.now, timer.is_doing]
    @loop.advance(1) # t = 1000: the pause acts; the first second's tick counted
    assert_equal [false, 1], [timer.is_doing, timer.count]
    @loop.advance(5000) # the stop was dropped
    assert_equal [1, false], [timer.count, timer.is_doing]
    player.tapped("stop") # long after the last action: acts on the next dispatch
    @loop.advance(0)
    assert_equal [0, 5], [timer.count, vm.display.remaining_time]
  end

  def test_count_down_timer_commands
    timer = Catalog::CountDownTimer.new(@loop, 3)
    assert_equal [3, 0, 3, false], [timer.full_count, timer.count, timer.remaining_time, timer.is_doing]
    timer.start
    @loop.advance(1000)
    assert_equal [1, 2], [timer.count, timer.remaining_time]
    timer.pause
    @loop.advance(5000)
    assert_equal 1, timer.count
    timer.start
    @loop.advance(1000)
    assert_equal 2, timer.count
    timer.reset
    assert_equal [0, true], [timer.count, timer.is_doing]
    timer.stop
    assert_equal [0, false], [timer.count, timer.is_doing]
  end

  # --- stop watch -------------------------------------------------------------------------------

  def screen(vm)
    [vm.time, vm.main_action_title, vm.clear_action_title, vm.main_action_enabled, vm.clear_action_enabled]
  end

  def test_stop_watch_view_model_time_titles_and_clear
    vm = Catalog::StopWatchViewModel.new(@loop)
    assert_equal ["00:00:00.00", "Start", "Clear", true, false], screen(vm)
    vm.main_action
    assert_equal ["00:00:00.00", "Stop", "Clear", true, false], screen(vm)
    @loop.advance(1230)
    assert_equal ["00:00:01.23", "Stop", "Clear", true, false], screen(vm)
    vm.main_action
    assert_equal ["00:00:01.23", "Resume", "Clear", true, true], screen(vm)
    @loop.advance(500)
    assert_equal "00:00:01.23", vm.time
    vm.main_action # resume: the time accumulates
    @loop.advance(770)
    assert_equal ["00:00:02.00", "Stop", "Clear", true, false], screen(vm)
    vm.clear_action # running: nothing
    assert_equal "00:00:02.00", vm.time
    vm.main_action
    vm.clear_action
    assert_equal ["00:00:00.00", "Start", "Clear", true, false], screen(vm)
    vm.main_action
    @loop.advance(3_661_230)
    assert_equal "01:01:01.23", vm.time
  end

  def test_stop_watch_view_model_notifies_time_every_ten_milliseconds
    vm = Catalog::StopWatchViewModel.new(@loop)
    times = Recorder.new
    vm.subscribe(:time, &times)
    vm.main_action
    @loop.advance(35)
    assert_equal ["00:00:00.01", "00:00:00.02", "00:00:00.03"], times.values
  end

  def test_stop_watch_model_states
    sw = Catalog::StopWatch.new(@loop)
    assert_equal [0, "startable"], [sw.time_ms, sw.state]
    sw.start
    @loop.advance(1000)
    assert_equal [1000, "stoppable"], [sw.time_ms, sw.state]
    @loop.advance(5)
    sw.stop
    assert_equal [1005, "resumable"], [sw.time_ms, sw.state]
    sw.resume
    @loop.advance(250)
    assert_equal 1255, sw.time_ms
    sw.stop
    sw.clear
    assert_equal [0, "startable"], [sw.time_ms, sw.state]
  end

  # --- input echo -------------------------------------------------------------------------------

  def test_input_echo_echoes_utf8
    vm = Catalog::InputEchoViewModel.new(@loop)
    assert_equal ["", "", "Your input is ''!"], [vm.input, vm.label, vm.message]
    events = Recorder.new
    vm.subscribe(&events)
    vm.input = "héllo"
    assert_equal ["héllo", "héllo", "Your input is 'héllo'!"], [vm.input, vm.label, vm.message]
    assert_equal [[:input, "héllo"], [:label, "héllo"], [:message, "Your input is 'héllo'!"]], events.events.sort
    assert_equal Encoding::UTF_8, vm.label.encoding
    vm[:input] = "#{FAMILY}!"
    assert_equal "Your input is '#{FAMILY}!'!", vm[:message]
  end

  # --- sign-up ----------------------------------------------------------------------------------

  def fill(vm, user_id, password, confirm, agreed)
    vm.user_id = user_id
    vm.password = password
    vm.confirm_password = confirm
    vm.agreed = agreed
  end

  def test_sign_up_validation_at_the_boundaries
    vm = Catalog::SignUpViewModel.new(@loop)
    assert_equal [false, "", false, false], [vm.is_sign_up_enabled, vm.user_id, vm.agreed, vm.is_completion_alert_presented]
    fill(vm, "abcdef", "12345678", "12345678", true)
    assert_equal true, vm.is_sign_up_enabled?
    vm.user_id = "abcde" # 5
    assert_equal false, vm.is_sign_up_enabled
    vm.user_id = "abcdef" # 6
    assert_equal true, vm.is_sign_up_enabled
    vm.password = vm.confirm_password = "1234567" # 7
    assert_equal false, vm.is_sign_up_enabled
    vm.password = "12345678" # 8, confirmation differs
    assert_equal false, vm.is_sign_up_enabled
    vm.confirm_password = "12345678"
    assert_equal true, vm.is_sign_up_enabled
    vm.confirm_password = "12345679" # mismatch
    assert_equal false, vm.is_sign_up_enabled
    vm.confirm_password = "12345678"
    vm.agreed = false
    assert_equal false, vm.is_sign_up_enabled
    vm.agreed = true
    assert_equal true, vm.is_sign_up_enabled
    assert_equal ["abcdef", "12345678", "12345678", true], [vm.user_id, vm.password, vm.confirm_password, vm.agreed?]
  end

  def test_sign_up_counts_grapheme_clusters
    vm = Catalog::SignUpViewModel.new(@loop)
    fill(vm, FAMILY * 6, "12345678", "12345678", true)
    assert_equal true, vm.is_sign_up_enabled, "six families are 6 characters (150 bytes)"
    assert_equal FAMILY * 6, vm.user_id
    vm.user_id = FAMILY * 5
    assert_equal false, vm.is_sign_up_enabled
    vm.user_id = "#{E_ACUTE_DECOMPOSED * 5}a"
    assert_equal true, vm.is_sign_up_enabled
    vm.user_id = E_ACUTE_DECOMPOSED * 5
    assert_equal false, vm.is_sign_up_enabled
    vm.user_id = "abcdef"
    vm.password = vm.confirm_password = FAMILY * 7
    assert_equal false, vm.is_sign_up_enabled
    vm.password = vm.confirm_password = FAMILY * 8
    assert_equal true, vm.is_sign_up_enabled
  end

  def test_sign_up_enabled_flips_are_notified_once_each
    vm = Catalog::SignUpViewModel.new(@loop)
    flips = Recorder.new
    vm.subscribe(:is_sign_up_enabled, &flips)
    fill(vm, "abcdef", "12345678", "12345678", true)
    vm.user_id = "abcdefg" # still enabled: no event
    vm.agreed = false
    assert_equal [[:is_sign_up_enabled, true], [:is_sign_up_enabled, false]], flips.events
  end

  def test_sign_up_tapped_with_the_built_in_service
    vm = Catalog::SignUpViewModel.new(@loop)
    alerts = Recorder.new
    vm.subscribe(:is_completion_alert_presented, &alerts)
    fill(vm, "abcdef", "12345678", "12345678", false)
    vm.sign_up_tapped # disabled: nothing
    @loop.advance(0)
    assert_equal false, vm.is_completion_alert_presented
    assert_equal [], alerts.events
    vm.agreed = true
    vm.sign_up_tapped
    assert_equal true, vm.is_completion_alert_presented?
    assert_equal [[:is_completion_alert_presented, true]], alerts.events
    vm.is_completion_alert_presented = false
    assert_equal false, vm.is_completion_alert_presented
  end

  # --- welcome ----------------------------------------------------------------------------------

  def test_welcome_signals
    vm = Catalog::WelcomeViewModel.new(@loop)
    signals = Recorder.new
    vm.subscribe(&signals)
    vm.view_did_load
    assert_equal [], signals.values(:on_show_welcome)
    @loop.advance(0)
    assert_equal ["Welcome!"], signals.values(:on_show_welcome)
    vm.tap_button("A")
    assert_equal ["A show!!"], signals.values(:on_show_text)
    vm.perform(:tap_button, "B")
    vm.tap_button("")
    assert_equal ["A show!!", "B show!!", " show!!"], signals.values(:on_show_text)
    vm.view_did_load
    vm.view_did_load
    @loop.advance(0) # two loads at one instant: two signals, never merged
    assert_equal ["Welcome!"] * 3, signals.values(:on_show_welcome)
  end

  def test_welcome_show_only_first_pairs_loads_with_taps_like_zip
    vm = Catalog::WelcomeViewModel.new(@loop)
    firsts = Recorder.new
    events = []
    vm.subscribe(:on_show_only_first) { |_name, _value, event| events << event }
    vm.subscribe(:on_show_only_first, &firsts)
    steps = [[:tap, 0], [:load, 1], [:tap, 1], [:tap, 1], [:load, 2], [:load, 3], [:load, 3], [:tap, 4]]
    steps.each do |action, expected|
      action == :tap ? vm.tap_button("x") : vm.view_did_load
      assert_equal expected, firsts.count, "after #{action}: #{firsts.events.inspect}"
    end
    @loop.advance(0) # the welcomes arrive; they are not this signal
    assert_equal [[:on_show_only_first, nil]] * 4, firsts.events
    assert events.all? { |e| e.signal? && e.object.equal?(vm) && e.value.nil? }
  end

  # --- counters ---------------------------------------------------------------------------------

  def test_two_counter_view_models_over_one_counter_stay_in_step
    counter = Catalog::Counter.new(@loop)
    first = Catalog::CounterViewModel.new(@loop, counter)
    second = Catalog::CounterViewModel.new(@loop, counter)
    assert_same counter, first.model
    assert_equal %w[Counter Counter 0 0], [first.label, second.label, first.count, second.count]
    seen = Recorder.new
    second.subscribe(:count, &seen)
    first.increment
    first.increment
    second.decrement
    assert_equal ["1", "1", 1], [first.count, second.count, counter.count]
    assert_equal [[:count, "1"], [:count, "2"], [:count, "1"]], seen.events
    second.perform(:decrement)
    second.decrement
    assert_equal ["-1", -1], [first.count, counter.count]
    3.times { counter.increment }
    counter.decrement
    assert_equal [1, "1", "1"], [counter.count, first.count, second.count]
    first.close
    second.increment
    assert_equal "2", second.count
  end

  def draw(seed, count = 20)
    Catalog::RandomCounter.open(@loop, seed) do |counter|
      assert_equal 0, counter.count
      Array.new(count) do |i|
        i.even? ? counter.increment : counter.decrement
        counter.count
      end
    end
  end

  def test_random_counter_repeats_its_sequence_for_a_seed
    first = draw(42)
    assert_equal first, draw(42)
    refute_equal first, draw(43)
    assert first.all? { |n| (1..10).cover?(n) }
    assert_operator first.uniq.size, :>=, 4
    assert_equal draw(2**64 - 1), draw(2**64 - 1)
  end

  def test_counter_page_has_two_counters
    page = Catalog::CounterPageViewModel.new(@loop, seed: 7)
    refute_empty page.read_me
    first = page.first_counter
    second = page.second_counter
    assert_instance_of Catalog::CounterViewModel, first
    assert_nil first.model
    assert_equal ["Counter", "Random Counter", "0", "0"], [first.label, second.label, first.count, second.count]
    first.increment
    second.increment
    assert_equal ["1", draw(7, 1).first.to_s], [first.count, second.count]
    again = page.child_object(:second_counter)
    assert_equal second.count, again[:count]
    again.close
    page.close
    assert first.closed?
    assert second.closed?
  end

  # --- description ------------------------------------------------------------------------------

  def test_every_class_describes_itself_as_the_ruby_class_declares
    timer = Catalog::CountDownTimer.new(@loop, 5)
    timer_vm = Catalog::TimerViewModel.new(@loop, timer)
    counter = Catalog::Counter.new(@loop)
    objects = [timer, timer_vm, timer_vm.display, timer_vm.player, Catalog::StopWatch.new(@loop),
               Catalog::StopWatchViewModel.new(@loop), Catalog::InputEchoViewModel.new(@loop),
               Catalog::SignUpViewModel.new(@loop), Catalog::WelcomeViewModel.new(@loop), counter,
               Catalog::RandomCounter.new(@loop, 1), Catalog::CounterViewModel.new(@loop, counter),
               Catalog::CounterPageViewModel.new(@loop, seed: 1)]
    # Every other class of the library that needs no argument is checked too, so a class added to
    # the catalog is covered with no line here; what remains unchecked needs arguments or a parent.
    checked = objects.map { |o| o.class.c_name.to_s }
    Catalog.classes.each do |c_name, klass|
      next if checked.include?(c_name.to_s)
      objects << klass.new(@loop) if klass.constructors.any? { |c| c.arguments.empty? }
    end
    unchecked = Catalog.classes.keys.map(&:to_s) - objects.map { |o| o.class.c_name.to_s }
    assert_empty unchecked
    objects.each do |object|
      klass = object.class
      description = object.describe
      assert_equal klass.c_name, object.class_name
      assert_equal klass.c_name, description["class"]
      properties = description["properties"].map { |p| [p["name"].to_sym, p["type"].to_sym, p["access"].to_sym] }
      assert_equal klass.properties.values.map { |p| p.to_a.first(3) }, properties, klass.name
      commands = description["commands"].map { |c| [c["name"].to_sym, c["arguments"].map { |a| a["name"].to_sym }] }
      assert_equal klass.commands.values.map { |c| [c.name, c.arguments] }, commands, klass.name
      signals = description["signals"].map { |s| [s["name"].to_sym, s["type"].to_sym] }
      assert_equal klass.signals.to_a, signals, klass.name
      assert_equal klass.children.keys.map(&:to_s), description["children"], klass.name
      assert_equal klass.properties.keys.map(&:to_s).sort, object.snapshot.keys.sort, klass.name
    end
  end

  def test_snapshot_has_the_values
    vm = Catalog::SignUpViewModel.new(@loop)
    vm.user_id = "abc"
    assert_equal({ "user_id" => "abc", "password" => "", "confirm_password" => "", "agreed" => false,
                   "is_completion_alert_presented" => false, "is_sign_up_enabled" => false }, vm.to_h)
  end
end
