# frozen_string_literal: true

module Mvvm
  # Owns one mvvm_handle of one library and releases it exactly once: by Mvvm.close, or by a
  # finalizer when the Ruby object that owns it is collected without being closed. The finalizer
  # is this box, never the owner, so it does not keep the owner alive.
  class HandleBox
    attr_reader :handle, :library

    def initialize(handle, library)
      @handle = handle
      @library = library
      @released = false
    end

    def released?
      @released
    end

    # Releases the handle; true the first time, false afterwards. No Mutex: finalizers run in
    # a context where Ruby forbids locking. Two threads closing one object at once could both
    # call mvvm_release, which is harmless: the second gets MVVM_ERR_INVALID_HANDLE (a released
    # handle never reaches another object), and this ignores the status.
    def release
      return false if @released

      @released = true
      @library.fn(:mvvm_release).call(@handle)
      true
    end

    # Marks the handle released without releasing it (the library released it itself).
    def forget
      @released = true
    end

    # The finalizer (ObjectSpace.define_finalizer calls it with the object id).
    def call(_object_id)
      release
    end
  end

  # What loops, objects and services share: one handle of one library, closed once. The
  # instance methods close, closed? and handle are conveniences; a view model's own members
  # may take those names (a command `close`), so code that must work on every object uses
  # Mvvm.close(obj), Mvvm.closed?(obj) and Mvvm.handle(obj), which no member can shadow.
  module Closeable
    # Releases the handle. Closing twice does nothing.
    def close
      Mvvm.close(self)
    end

    def closed?
      Mvvm.closed?(self)
    end

    # The C handle (an Integer). It stays the same after closing, when the library refuses it
    # with Mvvm::InvalidHandleError.
    def handle
      Mvvm.handle(self)
    end

    private

    def adopt(handle, library)
      @box = HandleBox.new(handle, library)
      ObjectSpace.define_finalizer(self, @box)
    end

    module ClassMethods
      # new(*args), and with a block: yields the new object and closes it (Mvvm.close) when the
      # block ends, returning the block's value.
      def open(*args, **kwargs, &block)
        return new(*args, **kwargs) unless block

        object = new(*args, **kwargs)
        begin
          yield object
        ensure
          Mvvm.close(object)
        end
      end
    end

    def self.included(base)
      base.extend(ClassMethods)
    end
  end
end
