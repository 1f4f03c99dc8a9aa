# frozen_string_literal: true

require "fiddle"
require "fiddle/closure"

module Mvvm
  # How C calls Ruby back, whatever Ruby's garbage collector does.
  #
  # There are exactly four C function pointers, TRAMPOLINE (an mvvm_callback), REQUEST (an
  # mvvm_request_fn), DONE (an mvvm_done_fn) and DESTROY (an mvvm_destroy_fn): Fiddle closures
  # created once, held by these constants for the life of the process, so C can never call freed
  # code. The user_data of a subscription, a host service or an async call is not a Ruby object
  # but an integer key into the registry, which holds the Ruby block (and what it needs) until
  # the library calls DESTROY with that key - exactly once, when the subscription or the service
  # ends, or after the call's completion. A block nobody else keeps is therefore alive exactly as
  # long as C may call it.
  #
  # A block must not unwind through the library's C frames: an exception it raises (break from
  # a block too: a LocalJumpError) is caught in the trampoline and raised again, on the same
  # thread, when the library call that ran the block returns. (A `throw` to a `catch` outside
  # that call cannot be intercepted by Ruby code: do not throw out of a subscriber's block.)
  module Callbacks
    Entry = Struct.new(:block, :source, :name)
    # A host service's block (see Mvvm::Service); `name` says what it serves, for diagnostics;
    # `library` is the Mvvm::Library it serves.
    ServiceEntry = Struct.new(:block, :name, :library)
    # An async call (see Mvvm::Call): the call, its object and the command's name.
    CallEntry = Struct.new(:call, :source, :name)

    # Single Hash operations are atomic under Ruby's GVL; only #register, which also counts,
    # takes a lock. DESTROY may run from a finalizer (Ruby forbids locking there), so it never does.
    @registry = {}
    @next_key = 0
    @unknown_destroys = 0
    @lock = Mutex.new

    class << self
      # Registers `entry` and gives its key (1, 2, ...; never 0, which C would see as NULL).
      def register(entry)
        @lock.synchronize do
          @next_key += 1
          @registry[@next_key] = entry
          @next_key
        end
      end

      # Unregisters `key` if it is registered (a callback the library never took, or let go of
      # already), without counting it as a destroy.
      def forget(key)
        @registry.delete(key)
        nil
      end

      def registered?(key)
        @registry.key?(key)
      end

      # How many callbacks the library still holds (destroy not yet run).
      def size
        @registry.size
      end

      # The entries still registered (a copy), for diagnostics.
      def entries
        @registry.dup
      end

      # {registered: callbacks registered so far, live: not destroyed yet, unknown_destroys:
      # DESTROY calls for a key not registered (a second destroy of one callback would count
      # here)}. Every callback was destroyed exactly once when live and unknown_destroys are 0.
      def stats
        @lock.synchronize do
          { registered: @next_key, live: @registry.size, unknown_destroys: @unknown_destroys }
        end
      end

      # True when a block raised during the last library call (on this thread), not raised yet.
      def pending?
        !Thread.current[:mvvm_callback_error].nil?
      end

      # Raises, on this thread, the first exception a block raised during the last library call.
      def raise_pending
        error = Thread.current[:mvvm_callback_error]
        return unless error

        Thread.current[:mvvm_callback_error] = nil
        raise error
      end

      # mvvm_callback: source, event address, key.
      def deliver(source, event_address, key)
        entry = @registry[key]
        return unless entry

        kind, name, value = read_event(event_address, Mvvm.library_of(entry.source))
        value = Mvvm.rendered(entry.source, name, value) unless kind == ABI::EVENT_SPLICE
        event = Event.new(name.to_sym, value, EVENT_KINDS.fetch(kind, :property),
                          entry.source, source)
        block = entry.block
        args = [event.name, value, event]
        args = args.first(block.arity) if block.lambda? && block.arity >= 0
        block.call(*args)
      rescue Exception => e # rubocop:disable Lint/RescueException -- nothing may unwind into C
        Thread.current[:mvvm_callback_error] ||= e
      end

      # mvvm_request_fn: view model handle, request handle, argument address, key. The block
      # gets an Mvvm::Request; a request whose service is gone is cancelled at once.
      def serve(view_model, request, argument_address, key)
        entry = @registry[key]
        return unless entry.is_a?(ServiceEntry) # never: the library asks only while the service lives

        argument = Values.read(argument_address, entry.library)
        entry.block.call(Request.new(request, view_model, argument, entry.library))
      rescue Exception => e # rubocop:disable Lint/RescueException -- nothing may unwind into C
        Thread.current[:mvvm_callback_error] ||= e
      end

      # mvvm_done_fn: call handle, status, result address, message address, key. Ends the
      # Mvvm::Call (which runs its block); the library calls this once per call.
      def complete(_call, status, result_address, message_address, key)
        entry = @registry[key]
        return unless entry.is_a?(CallEntry) # never: the library ends a call once, before DESTROY

        entry.call.finish(status, result_address, Native.read_string(message_address))
      rescue Exception => e # rubocop:disable Lint/RescueException -- nothing may unwind into C
        Thread.current[:mvvm_callback_error] ||= e
      end

      # Reads an mvvm_event at `address`: [kind, name (String), value], the value of a splice
      # being an Mvvm::Splice.
      def read_event(address, library)
        fields = Fiddle::Pointer.new(address)[0, EVENT.size].unpack(EVENT.pack)
        kind, name = fields
        value = if kind == ABI::EVENT_SPLICE
                  Splice.new(*fields.last(3)).freeze
                else
                  Values.ruby(fields[2, Native::VALUE.fields.size], library)
                end
        [kind, Native.read_string(name), value]
      end

      # mvvm_destroy_fn: key.
      def destroy(key)
        @unknown_destroys += 1 unless @registry.delete(key)
      rescue Exception => e # rubocop:disable Lint/RescueException
        Thread.current[:mvvm_callback_error] ||= e
      end
    end

    EVENT = Native::EVENT
    # mvvm_event_kind => Event#kind.
    EVENT_KINDS = { ABI::EVENT_PROPERTY => :property, ABI::EVENT_SIGNAL => :signal,
                    ABI::EVENT_SPLICE => :splice }.freeze

    # void (*)(mvvm_handle source, const mvvm_event *event, void *user_data)
    def self.closure(type, &block)
      args, ret = ABI::CALLBACKS.fetch(type)
      Fiddle::Closure::BlockCaller.new(ret, args, &block)
    end

    # mvvm_callback: void (*)(mvvm_handle source, const mvvm_event *event, void *user_data)
    TRAMPOLINE = closure(:mvvm_callback) do |source, event, user_data|
      Callbacks.deliver(source, event.to_i, user_data.to_i)
    end

    # mvvm_request_fn: void (*)(mvvm_handle view_model, mvvm_handle request,
    #                           const mvvm_value *argument, void *user_data)
    REQUEST = closure(:mvvm_request_fn) do |view_model, request, argument, user_data|
      Callbacks.serve(view_model, request, argument.to_i, user_data.to_i)
    end

    # mvvm_done_fn: void (*)(mvvm_handle call, mvvm_status status, const mvvm_value *result,
    #                        const char *message, void *user_data)
    DONE = closure(:mvvm_done_fn) do |call, status, result, message, user_data|
      Callbacks.complete(call, status, result.to_i, message.to_i, user_data.to_i)
    end

    # mvvm_destroy_fn: void (*)(void *user_data)
    DESTROY = closure(:mvvm_destroy_fn) { |user_data| Callbacks.destroy(user_data.to_i) }

    # Pinned: the closures must also never move. Fiddle 1.1.0 (Ruby 3.1) gives libffi the
    # closure object's own address as its context, so GC.compact moving it would leave C calling
    # into a stale object (a segmentation fault). Ruby's compactor never moves an object that has
    # a finalizer (its finalizer table is keyed by address), so an empty finalizer pins each one.
    PIN = proc {}
    [TRAMPOLINE, REQUEST, DONE, DESTROY].each { |closure| ObjectSpace.define_finalizer(closure, PIN) }
  end

  # What a subscriber's block gets as its third argument: the event's name (a Symbol), its value
  # (nil for a signal without payload; an Mvvm::Splice for a list's change), :property, :signal
  # or :splice, the Ruby object subscribed to, and the C handle of the source.
  Event = Struct.new(:name, :value, :kind, :object, :source_handle) do
    def property? = kind == :property
    def signal? = kind == :signal
    def splice? = kind == :splice
  end

  # A subscription: ends with #unsubscribe (or #close), or when its object or loop is closed.
  class Subscription
    attr_reader :object, :name, :handle

    def initialize(object, name, handle, key)
      @object = object
      @name = name
      @handle = handle
      @key = key
    end

    # True until the library ended it (its destroy function ran).
    def active?
      Callbacks.registered?(@key)
    end

    # Ends the subscription: its block is not called again. Does nothing when it has ended
    # already (unsubscribed, or its object or loop closed). Returns true when it ended now.
    def unsubscribe
      return false unless active?

      Mvvm.library_of(@object).native.call(:mvvm_unsubscribe, @handle)
      true
    rescue InvalidHandleError
      raise if active?

      false # ended meanwhile, on another thread
    end
    alias close unsubscribe

    def inspect
      "#<Mvvm::Subscription #{@object.class.name}##{@name || '*'} #{active? ? 'active' : 'ended'}>"
    end
  end
end
