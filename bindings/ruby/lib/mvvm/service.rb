# frozen_string_literal: true

module Mvvm
  # A host service: what a view model's model asks (a sign-up, a welcome message) is answered
  # by the host. A constructor argument of type "service" (a constructor's `service:` or `api:`)
  # takes an Mvvm::Service or any callable (a block, a lambda, a Method), which is called with an
  # Mvvm::Request for each question:
  #
  #   vm = lib::Form.new(loop, service: ->(request) { request.complete(true) })
  #
  # A service belongs to one library (`library:`, or lib.service { |request| }) and serves
  # view models of that library. One service may serve several view models. The block lives (in Mvvm::Callbacks' registry,
  # never in C) until the library lets go of it: when the service is closed and every view model
  # made with it is closed. A callable given straight to a constructor becomes a service that
  # the constructor closes at once, so it lives exactly as long as its view model.
  #
  # The library calls the block on the thread that caused the request, so objects of a thread
  # loop refuse services (Mvvm::UnsupportedError), as they refuse subscriptions.
  # An exception the block raises is raised from the library call that ran it.
  class Service
    include Closeable

    def initialize(callable = nil, name: "service", library: nil, &block)
      @library = Library.required(library, "a service")
      fn = callable || block
      raise ArgumentError, "a service needs a callable or a block" if fn.nil?
      raise TypeError, "a service must respond to call, #{fn.class} does not" unless fn.respond_to?(:call)

      native = @library.native
      @key = Callbacks.register(Callbacks::ServiceEntry.new(fn, name.to_s, @library))
      out = Native.out
      # On failure the library runs DESTROY before returning, which unregisters the key.
      native.call(:mvvm_service_new, Callbacks::REQUEST.to_i, @key, Callbacks::DESTROY.to_i, out)
      adopt(out[0, 8].unpack1("Q"), native)
    end

    # True until the library let go of the block (the service and its view models are closed).
    def active?
      Callbacks.registered?(@key)
    end

    def inspect
      "#<Mvvm::Service #{closed? ? 'closed' : "handle=#{handle}"}#{active? ? '' : ' ended'}>"
    end
  end

  # A question a view model asks its host service. Answer it once with #complete (inside the
  # service's block, later, or from another Ruby thread), or #cancel it. A request nobody answered
  # is cancelled when it is collected.
  class Request
    # The argument the library passed (sign-up: the user id; welcome: nil).
    attr_reader :argument
    # The handle of the view model that asks, and of the request.
    attr_reader :view_model_handle, :handle

    def initialize(handle, view_model_handle, argument, library)
      @handle = handle
      @view_model_handle = view_model_handle
      @argument = argument
      @library = library
      @box = HandleBox.new(handle, library.native)
      @done = false
      ObjectSpace.define_finalizer(self, @box)
    end

    # The Ruby object of the view model that asks, when Ruby made it (else nil). Read it during
    # the request: a sign-up's password is readable then (request.view_model.password).
    def view_model
      @library.live_object(@view_model_handle)
    end

    # Answered or cancelled.
    def done?
      @done
    end

    # Answers the request (mvvm_complete) with `result`, any value (see Mvvm::Values), which the
    # library converts to the service's result type. Raises Mvvm::UnknownRequestError when it was
    # answered, cancelled or its view model closed; Mvvm::TypeMismatchError (it stays open) for
    # an answer of another type.
    def complete(result)
      answer(:mvvm_complete, result)
      self
    end

    # Answers the request as work of its loop (mvvm_complete_soon), the safe way from another
    # Thread: the answer is applied, and its changes notified, at the loop's next dispatch or
    # run_for (a manual loop) or advance (a virtual one). It counts as answered at once; errors
    # as #complete's, checked now.
    def complete_soon(result)
      answer(:mvvm_complete_soon, result) # the library releases the handle once it has applied it
      self
    end

    # Cancels the request (releases it): its answer is never awaited. Doing it twice does nothing.
    def cancel
      return self if @done

      @done = true
      ObjectSpace.undefine_finalizer(self)
      @box.release
      self
    end

    def inspect
      "#<Mvvm::Request argument=#{@argument.inspect} #{@done ? 'done' : 'open'}>"
    end

    private

    def answer(function, result)
      packer = Values::Packer.new(@library)
      begin
        @library.native.call(function, @handle, packer.pack([result]))
      rescue UnknownRequestError, InvalidHandleError
        finish
        raise
      end
      finish
    end

    # The library released the handle itself: nothing left to release.
    def finish
      @done = true
      ObjectSpace.undefine_finalizer(self)
      @box.forget
    end
  end
end
