# frozen_string_literal: true

module Mvvm
  # Every object lives on a loop, which runs its time:
  #
  #   Mvvm::Loop.virtual { |loop| ... }  # time moves only with #advance: exact, for tests
  #   Mvvm::Loop.manual                  # the host runs due work with #dispatch (#to_io says when)
  #   Mvvm::Loop.thread                  # the library runs it on a thread of its own
  #
  # With a block, the loop is closed when the block ends. Closing a loop stops it: its objects'
  # subscriptions end, and every call on them raises Mvvm::LoopReleasedError.
  class Loop
    include Closeable

    KINDS = { manual: 0, thread: 1, virtual: 2 }.freeze

    # :manual, :thread or :virtual
    attr_reader :kind

    def self.virtual(&block) = open(:virtual, &block)
    def self.manual(&block) = open(:manual, &block)
    def self.thread(&block) = open(:thread, &block)

    def initialize(kind = :virtual)
      code = KINDS.fetch(kind) { raise ArgumentError, "unknown loop kind #{kind.inspect} (#{KINDS.keys.join(', ')})" }
      @kind = kind
      adopt(Native.call_out(:mvvm_loop_new, code))
    end

    # Virtual loops: moves time forward by `ms` milliseconds, running what is due in time order;
    # advance(0) runs what is due now. Changes are notified before it returns. Returns self.
    def advance(ms)
      Native.call(:mvvm_loop_advance, handle, ms)
      self
    end

    # Manual loops: runs the work due now on this thread; returns how many pieces ran.
    def dispatch
      Native.call_out(:mvvm_loop_dispatch, handle, format: "q")
    end

    # Manual loops: dispatches due work on this thread for `ms` milliseconds. Returns self.
    def run_for(ms)
      Native.call(:mvvm_loop_run_for, handle, ms)
      self
    end

    # Milliseconds until the next work is due (0: due now), or nil when nothing is scheduled.
    def next_timeout
      ms = Native.call_out(:mvvm_loop_next_timeout_ms, handle, format: "q")
      ms.negative? ? nil : ms
    end

    # The loop's time, in milliseconds since it was created.
    def now
      Native.call_out(:mvvm_loop_now_ms, handle, format: "q")
    end

    # Manual loops: a file descriptor, owned by the loop, readable while work is due.
    def fileno
      Native.call_out(:mvvm_loop_fd, handle, format: "l")
    end

    # Manual loops: an IO over #fileno for IO.select (it never closes the descriptor).
    def to_io
      @to_io ||= IO.for_fd(fileno, autoclose: false)
    end

    def inspect
      "#<Mvvm::Loop #{@kind} #{closed? ? 'closed' : "handle=#{handle}"}>"
    end
  end
end
