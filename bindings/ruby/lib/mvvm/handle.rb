# frozen_string_literal: true

module Mvvm
  # Owns one mvvm_handle and releases it exactly once: by #close, or by a finalizer when the
  # Ruby object that owns it is collected without being closed. The finalizer is this box,
  # never the owner, so it does not keep the owner alive.
  class HandleBox
    attr_reader :handle

    def initialize(handle)
      @handle = handle
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
      Native.fn(:mvvm_release).call(@handle)
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

  # close, closed? and the block form shared by loops and objects.
  module Closeable
    # Releases the handle. Closing twice does nothing.
    def close
      ObjectSpace.undefine_finalizer(self)
      @box.release
      nil
    end

    def closed?
      @box.released?
    end

    # The C handle (an Integer). It stays the same after #close, when the library refuses it
    # with Mvvm::InvalidHandleError.
    def handle
      @box.handle
    end

    private

    def adopt(handle)
      @box = HandleBox.new(handle)
      ObjectSpace.define_finalizer(self, @box)
    end

    module ClassMethods
      # new(*args), and with a block: yields the new object and closes it when the block ends,
      # returning the block's value.
      def open(*args, **kwargs)
        object = new(*args, **kwargs)
        return object unless block_given?

        begin
          yield object
        ensure
          object.close
        end
      end
    end

    def self.included(base)
      base.extend(ClassMethods)
    end
  end
end
