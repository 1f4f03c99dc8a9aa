# frozen_string_literal: true

module Mvvm
  # A running async command (a Swift `async` function registered with asyncCommand), started by
  # its method through mvvm_call_async:
  #
  #   call = profile.load(3) { |tags, error| ... }  # the block runs once, when the call ends
  #   loop.advance(3000)                              # on a virtual loop: exactly then
  #   call.done?                                      # => true
  #   call.value                                      # => ["t0", "t1", "t2"] (raises its error)
  #
  # The method takes the command's arguments as a plain command's does (by position or keyword;
  # the library counts, binds and converts them) and returns an Mvvm::Call at once. The call ends
  # exactly once: with the command's result (converted as a plain command's is), with
  # Mvvm::CommandError when its Swift code throws (the library's message), or with
  # Mvvm::CancelledError when it is cancelled (#cancel) or its object or loop is closed. The block,
  # when given, is then called with (result, nil) or (nil, error). A command that ends without
  # suspending ends before its method returns. On a virtual loop a call ends inside the advance
  # that reaches its end, on a manual one inside a dispatch or run_for, always on the thread that
  # runs the loop's work. Objects of a thread loop refuse async calls (Mvvm::UnsupportedError): the
  # library's thread would end them, and Fiddle cannot call Ruby there; use a manual loop.
  #
  # Errors starting the call (an argument missing or of the wrong type, a closed object) are
  # raised by the method itself. An exception the block raises is raised from the library call
  # that ended the call (the advance, dispatch or cancel; the method itself for a call that did
  # not suspend), as a subscriber's is.
  #
  # The call is held by Mvvm::Callbacks' registry (the user data is its key) until the library's
  # destroy function runs, once, after its end; it holds its object until then.
  class Call
    # The object whose command runs, and the command's name (the library's).
    attr_reader :object, :name
    # The call's C handle while it runs, nil before it started and once it ended.
    attr_reader :handle

    def initialize(object, name, block)
      @object = object
      @name = name.to_sym
      @block = block
      @library = Mvvm.library_of(object)
      @what = "#{object.class.respond_to?(:c_name) ? object.class.c_name : object.class.name}.#{name}"
      @handle = nil
      @done = false
      @result = nil
      @error = nil
    end

    # True once the call ended (its block, if any, has run or is running).
    def done?
      @done
    end

    # Cancels the call (mvvm_cancel): its task is cancelled and the call ends now, on this thread,
    # with Mvvm::CancelledError (its block runs before this returns). True when this cancelled it;
    # false when it had ended already.
    def cancel
      handle = @handle
      return false if @done || handle.nil?

      @library.native.call(:mvvm_cancel, handle)
      true
    rescue InvalidHandleError
      raise unless @done

      false # it ended meanwhile
    end

    # The command's result once the call ended; raises its error (Mvvm::CommandError,
    # Mvvm::CancelledError) when it failed, and Mvvm::NotDoneError while it runs.
    def value
      unless @done
        raise NotDoneError.new("#{@what} has not ended yet: run its loop (advance, dispatch) until it does",
                               status: nil)
      end
      raise @error if @error

      @result
    end
    alias result value

    # The error the call ended with (Mvvm::CommandError, Mvvm::CancelledError), or nil (while it
    # runs too).
    def error
      @error
    end

    def inspect
      state = if !@done then "running"
              elsif @error.is_a?(CancelledError) then "cancelled"
              elsif @error then "raised #{@error.class.name}"
              else "returned #{@result.inspect}"
              end
      "#<Mvvm::Call #{@what} #{state}>"
    end

    # The handle mvvm_call_async gave (unless the call ended already).
    def started(handle) # :nodoc:
      @handle = handle unless @done
    end

    # Called once by the done trampoline (Mvvm::Callbacks.complete): ends the call, then runs the
    # block. The result's address is lent by the library for this call only: read here.
    def finish(status, result_address, message) # :nodoc:
      return if @done

      if status == ABI::OK
        @result = Mvvm.rendered(@object, @name, Values.read(result_address, @library))
      else
        text = message.to_s
        text = status == ABI::ERR_CANCELLED ? "#{@what} was cancelled" : "#{@what} failed" if text.empty?
        @error = Error.class_for(status).new(text, status: status, function: "mvvm_call_async")
      end
      @done = true
      @handle = nil
      block = @block
      @block = nil
      return unless block

      args = [@result, @error]
      args = args.first(block.arity) if block.lambda? && block.arity >= 0
      block.call(*args)
    end
  end

  # Mvvm::Call#value of a call that has not ended. Not a library status: #status is nil.
  class NotDoneError < Error; end

  class << self
    # Starts the async command `name` of `object` (mvvm_call_async) with `args` by position, then
    # `kwargs` by name, as Mvvm.call takes them, and returns its Mvvm::Call; the block, when
    # given, is called once with (result, nil) or (nil, error) when the call ends. Objects of a
    # thread loop refuse it (Mvvm::UnsupportedError).
    def call_async(object, name, *args, **kwargs, &block)
      refuse_thread_loop(object, "run an async command of an object", "end the call")
      native = native_of(object)
      names = [nil] * args.size + kwargs.keys.map { |k| Names.library(k) }
      values = args + kwargs.values
      packer = Values::Packer.new(library_of(object), loop_of(object))
      call = Call.new(object, name, block)
      key = Callbacks.register(Callbacks::CallEntry.new(call, object, name))
      out = Native.out
      begin
        status = native.fn(:mvvm_call_async).call(handle(object), Native.c_string(name), packer.names(names),
                                                  packer.pack(values), values.size, Callbacks::DONE.to_i, key,
                                                  Callbacks::DESTROY.to_i, out)
      rescue Exception # rubocop:disable Lint/RescueException -- a value Ruby cannot pack: the library never saw the key
        Callbacks.forget(key)
        raise
      ensure
        packer.finish
      end
      if status != ABI::OK
        Callbacks.forget(key) # the library ran DESTROY already (DONE never runs): this only makes sure
        native.check(status, "mvvm_call_async")
      end
      call.started(out[0, 8].unpack1("Q"))
      if Callbacks.pending?
        # A block (a subscriber's, or this call's own) raised while the call started: the exception
        # is raised here, so no one would hold the call: it is cancelled first.
        call.cancel
        Callbacks.raise_pending
      end
      call
    end
  end
end
