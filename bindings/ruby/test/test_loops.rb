# frozen_string_literal: true

require_relative "helper"

# The three kinds of loop, and their block forms.
class TestLoops < MvvmTest
  def test_virtual_loop_time_moves_only_with_advance
    assert_equal [:virtual, 0, nil], [@loop.kind, @loop.now, @loop.next_timeout]
    sw = Catalog::StopWatch.new(@loop)
    sw.start
    assert_equal 10, @loop.next_timeout
    sleep 0.02
    assert_equal [0, 0], [@loop.now, sw.time_ms]
    assert_same @loop, @loop.advance(25)
    assert_equal [25, 20, 5], [@loop.now, sw.time_ms, @loop.next_timeout]
  end

  def test_loop_block_form_closes_the_loop_and_gives_the_block_value
    kept = nil
    result = Mvvm::Loop.virtual(library: Catalog) do |loop|
      kept = loop
      Catalog::Counter.new(loop).subscribe(:count) { nil }
      loop.advance(7).now
    end
    assert_equal 7, result
    assert kept.closed?
    assert_equal 0, Mvvm::Callbacks.size
    assert_raises(Mvvm::InvalidHandleError) { kept.now }
    assert_instance_of Mvvm::Loop, Mvvm::Loop.manual(library: Catalog).tap(&:close)
    assert_equal 3, Catalog.loop(:virtual) { |loop| loop.advance(3).now }, "library.loop(kind) is the same"
  end

  def test_manual_loop_dispatches_on_this_thread_when_its_descriptor_is_readable
    loop = new_loop(:manual)
    assert_equal :manual, loop.kind
    assert_kind_of Integer, loop.fileno
    assert_nil loop.next_timeout
    assert_equal 0, loop.dispatch
    vm = Catalog::StopWatchViewModel.new(loop)
    times = Recorder.new
    vm.subscribe(:time, &times)
    vm.main_action
    assert_operator loop.next_timeout, :<=, 10
    ready, = IO.select([loop], nil, nil, 5)
    assert_equal [loop], ready
    assert_operator loop.dispatch, :>=, 1
    assert_operator times.count, :>=, 1
    loop.run_for(30)
    assert_operator times.count, :>=, 2
    assert_equal [Thread.current], times.threads.uniq, "changes are notified on the dispatching thread"
    vm.main_action
    assert_equal "Resume", vm.main_action_title
    assert_match(/\A00:00:00\.\d\d\z/, vm.time)
  end

  def test_thread_loop_runs_time_by_itself_and_refuses_subscriptions
    loop = new_loop(:thread)
    echo = Catalog::InputEchoViewModel.new(loop)
    echo.input = "héllo"
    assert_equal "Your input is 'héllo'!", echo.message
    error = assert_raises(Mvvm::UnsupportedError) { echo.subscribe { nil } }
    assert_nil error.status
    assert_raises(Mvvm::UnsupportedError) { Catalog::StopWatch.new(loop).subscribe(:time_ms) { nil } }
    sw = Catalog::StopWatch.new(loop)
    sw.start
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
    sleep 0.01 while sw.time_ms < 30 && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    assert_operator sw.time_ms, :>=, 30
    assert_operator loop.now, :>=, sw.time_ms
  end

  def test_library_version_and_path
    assert_match(/\A0\.\d+\.\d+\z/, Catalog.version)
    assert_equal File.expand_path(catalog_library_path), Catalog.path
    assert File.file?(Catalog.path)
  end

  # There is no default library for a loop to take: it is named, or the loop is refused.
  def test_a_loop_needs_its_library
    %i[virtual manual thread main].each do |kind|
      error = assert_raises(ArgumentError) { Mvvm::Loop.public_send(kind) }
      assert_match(/\Aa loop belongs to a library: give library: Mvvm\.load\(path\)/, error.message)
    end
    assert_raises(ArgumentError) { Mvvm::Loop.new(:virtual, library: catalog_library_path) }
  end
end
