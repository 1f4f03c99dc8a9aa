# frozen_string_literal: true

require_relative "helper"

# Subscriptions: what blocks get, when they end, and that C never calls a block Ruby collected.
class TestSubscriptions < MvvmTest
  def test_block_arguments_and_events
    vm = Catalog::InputEchoViewModel.new(@loop)
    got = []
    vm.subscribe(:message) { |name, value, event| got << [name, value, event] }
    vm.input = "a"
    name, value, event = got.fetch(0)
    assert_equal [:message, "Your input is 'a'!"], [name, value]
    assert_instance_of Mvvm::Event, event
    assert_equal [:message, "Your input is 'a'!", :property, true, false], [event.name, event.value, event.kind, event.property?, event.signal?]
    assert_same vm, event.object
    assert_equal vm.handle, event.source_handle
    assert_equal 1, got.size
  end

  def test_lambdas_get_the_arguments_they_take
    counter = Catalog::Counter.new(@loop)
    one = []
    two = []
    counter.subscribe(:count, &->(name) { one << name })
    counter.subscribe(:count, &->(name, value) { two << [name, value] })
    counter.increment
    assert_equal [[:count], [[:count, 1]]], [one, two]
  end

  def test_a_getter_inside_the_block_sees_the_new_value_and_subscribers_run_in_order
    counter = Catalog::Counter.new(@loop)
    order = []
    counter.subscribe(:count) { |_, value| order << [:first, value, counter.count] }
    counter.subscribe { |name, value| order << [:second, name, value] }
    counter.subscribe(:count) { |_, value| order << [:third, value] }
    counter.increment
    assert_equal [[:first, 1, 1], [:second, :count, 1], [:third, 1]], order
  end

  def test_unsubscribe_ends_the_subscription_once
    counter = Catalog::Counter.new(@loop)
    values = []
    subscription = counter.subscribe(:count) { |_, value| values << value }
    assert subscription.active?
    assert_equal :count, subscription.name
    counter.increment
    assert_equal true, subscription.unsubscribe
    refute subscription.active?
    assert_equal false, subscription.unsubscribe
    counter.increment
    assert_equal [1], values
  end

  def test_a_block_may_unsubscribe_itself_and_subscribe_another
    counter = Catalog::Counter.new(@loop)
    values = []
    subscription = nil
    subscription = counter.subscribe(:count) do |_, value|
      values << [:once, value]
      subscription.unsubscribe
      counter.subscribe(:count) { |_, v| values << [:later, v] }
    end
    counter.increment
    counter.increment
    assert_equal [[:once, 1], [:later, 2]], values
    refute subscription.active?
  end

  def test_closing_the_object_ends_its_subscriptions_and_children_close_with_their_parent
    vm = Catalog::TimerViewModel.new(@loop, Catalog::CountDownTimer.new(@loop, 5))
    display = vm.display
    subscriptions = [vm.subscribe { flunk }, display.subscribe { flunk }, vm.player.subscribe { flunk }]
    vm.close
    assert display.closed?
    assert vm.player.closed?
    assert subscriptions.none?(&:active?)
    assert_equal 0, Mvvm::Callbacks.size
  end

  def test_object_block_form_closes_it
    result = Catalog::SignUpViewModel.open(@loop) do |vm|
      vm.subscribe { nil }
      @vm = vm
      :done
    end
    assert_equal :done, result
    assert @vm.closed?
    assert_equal 0, Mvvm::Callbacks.size
  end

  def compact
    return unless GC.respond_to?(:verify_compaction_references)

    # Moves every object that can move, and checks every reference.
    GC.verify_compaction_references(double_heap: true, toward: :empty)
  end

  N = 3000

  def test_gc_stress_thousands_of_blocks_nobody_keeps
    counter = Catalog::Counter.new(@loop)
    sums = Array.new(N, 0)
    N.times do |i|
      # Neither the block nor the subscription is kept by the test: only the registry holds them.
      counter.subscribe(:count) { |_, value| sums[i] += value }
      GC.start if (i % 250).zero?
    end
    GC.start
    compact
    assert_equal N, Mvvm::Callbacks.size
    counter.increment
    assert_equal [1], sums.uniq, "every block ran once"
    GC.start(full_mark: true, immediate_sweep: true)
    compact
    counter.increment
    assert_equal [3], sums.uniq, "every block ran again after collections and compaction"

    # Churn: subscribe and unsubscribe, collecting in between.
    kept = []
    2000.times do |i|
      subscription = counter.subscribe { |_, _| nil }
      i.even? ? subscription.unsubscribe : kept << subscription
      GC.start if (i % 200).zero?
    end
    assert_equal N + 1000, Mvvm::Callbacks.size
    kept.each_with_index { |s, i| s.unsubscribe if i.even? }
    kept = nil
    GC.start
    assert_equal N + 500, Mvvm::Callbacks.size
    counter.increment
    assert_equal [6], sums.uniq

    stats = Mvvm::Callbacks.stats
    assert_equal N + 500, stats[:live]
    counter.close # every destroy runs, exactly once
    after = Mvvm::Callbacks.stats
    assert_equal [0, stats[:unknown_destroys]], [after[:live], after[:unknown_destroys]]
  end

  def test_gc_stress_mode_while_blocks_are_called
    vm = Catalog::StopWatchViewModel.new(@loop)
    times = []
    begin
      GC.stress = true
      4.times { vm.subscribe(:time) { |_, value| times << value } }
      vm.main_action
      @loop.advance(20)
    ensure
      GC.stress = false
    end
    assert_equal ["00:00:00.01"] * 4 + ["00:00:00.02"] * 4, times
  end

  def test_closing_the_loop_runs_every_destroy
    objects = Array.new(20) { Catalog::SignUpViewModel.new(@loop) }
    objects.each { |vm| 50.times { vm.subscribe { nil } } }
    assert_equal 1000, Mvvm::Callbacks.size
    GC.start
    @loop.close
    assert_equal 0, Mvvm::Callbacks.size
  end

  def test_objects_nobody_keeps_are_released_by_their_finalizers
    probes = make_and_drop_counters(50)
    5.times { GC.start(full_mark: true, immediate_sweep: true) }
    released = probes.count { |probe| released?(probe) }
    # Ruby's collector is conservative about the machine stack: allow a straggler or two.
    assert_operator released, :>=, 48, "counters released by their finalizers"
  end

  private

  # Makes counters, keeps nothing of them but second owners of their handles (without finalizers)
  # to look at them afterwards.
  def make_and_drop_counters(count)
    Array.new(count) do
      counter = Catalog::Counter.new(@loop)
      probe = Catalog::Counter.allocate
      probe.send(:init_handle, counter.handle, @loop, Catalog)
      ObjectSpace.undefine_finalizer(probe)
      probe
    end
  end

  def released?(probe)
    probe.count
    false
  rescue Mvvm::InvalidHandleError
    true
  end
end
