# frozen_string_literal: true

module Mvvm
  # Every object lives on a loop, which runs its time:
  #
  #   lib = Mvvm.load(path)
  #   lib.loop(:virtual) { |loop| ... }  # time moves only with #advance: exact, for tests
  #   lib.loop(:manual)                  # the host runs due work with #dispatch (#to_io says when)
  #   lib.loop(:thread)                  # the library runs it on a thread of its own
  #   Mvvm::Loop.virtual(library: lib)   # the same as lib.loop(:virtual)
  #
  # With a block, the loop is closed when the block ends. Closing a loop stops it: its objects'
  # subscriptions end, and every call on them raises Mvvm::LoopReleasedError.
  #
  # A loop belongs to one library, which `library:` names (an Mvvm::Library from Mvvm.load;
  # there is no default one). Its objects are of that library's classes.
  class Loop
    include Closeable

    KINDS = { manual: ABI::LOOP_MANUAL, thread: ABI::LOOP_THREAD, virtual: ABI::LOOP_VIRTUAL, main: ABI::LOOP_MAIN }.freeze

    # :manual, :thread, :virtual or :main
    attr_reader :kind
    # The library it belongs to (an Mvvm::Library).
    attr_reader :library

    def self.virtual(library: nil, &block) = open(:virtual, library: library, &block)
    def self.manual(library: nil, &block) = open(:manual, library: library, &block)
    def self.thread(library: nil, &block) = open(:thread, library: library, &block)
    # The main loop: a manual loop for the main thread, where @MainActor view models live and
    # main-queue work and Foundation timers run (docs/loops-and-threads.md).
    def self.main(library: nil, &block) = open(:main, library: library, &block)

    def initialize(kind = :virtual, library: nil)
      code = KINDS.fetch(kind) { raise ArgumentError, "unknown loop kind #{kind.inspect} (#{KINDS.keys.join(', ')})" }
      @kind = kind
      @library = Library.required(library, "a loop")
      adopt(@library.native.call_out(:mvvm_loop_new, code), @library.native)
    end

    # Virtual loops: moves time forward by `ms` milliseconds, running what is due in time order;
    # advance(0) runs what is due now. Changes are notified before it returns. Returns self.
    def advance(ms)
      @library.native.call(:mvvm_loop_advance, handle, ms)
      self
    end

    # Manual loops: runs the work due now on this thread; returns how many pieces ran.
    def dispatch
      @library.native.call_out(:mvvm_loop_dispatch, handle, format: "q")
    end

    # Manual loops: dispatches due work on this thread for `ms` milliseconds. Returns self.
    def run_for(ms)
      @library.native.call(:mvvm_loop_run_for, handle, ms)
      self
    end

    # Milliseconds until the next work is due (0: due now), or nil when nothing is scheduled.
    def next_timeout
      ms = @library.native.call_out(:mvvm_loop_next_timeout_ms, handle, format: "q")
      ms.negative? ? nil : ms
    end

    # The loop's time, in milliseconds since it was created.
    def now
      @library.native.call_out(:mvvm_loop_now_ms, handle, format: "q")
    end

    # Manual loops: a file descriptor, owned by the loop, readable while work is due.
    def fileno
      @library.native.call_out(:mvvm_loop_fd, handle, format: "l")
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
