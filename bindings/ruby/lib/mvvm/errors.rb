# frozen_string_literal: true

module Mvvm
  # The library could not be found or loaded, or is of an incompatible version.
  # A LoadError, as Ruby raises for any library that cannot be loaded.
  class LibraryError < LoadError
    # [[path, what happened there], ...]
    attr_reader :tried

    def initialize(message, tried = [])
      super(message)
      @tried = tried
    end
  end

  # A call of the library failed. Its message is the library's own (mvvm_last_error()).
  # There is one subclass per mvvm_status; rescue Mvvm::Error for all of them.
  class Error < StandardError
    # The mvvm_status number, or nil for an error raised by these bindings.
    attr_reader :status
    # The C function that failed, such as "mvvm_set_string", or nil.
    attr_reader :function

    def initialize(message = nil, status: self.class.const_get(:STATUS), function: nil)
      super(message)
      @status = status
      @function = function
    end

    # The status's C name, such as "MVVM_ERR_READ_ONLY".
    def status_name
      self.class.const_get(:STATUS_NAME)
    end

    STATUS = nil
    STATUS_NAME = nil

    # The Error subclass of a status number (Error itself for a status this version does not know).
    def self.class_for(status)
      STATUS_CLASSES.fetch(status, Error)
    end
  end

  # [status, C name, class name]
  STATUS_TABLE = [
    [1, "MVVM_ERR_INVALID_HANDLE", :InvalidHandleError],
    [2, "MVVM_ERR_WRONG_TYPE", :WrongTypeError],
    [3, "MVVM_ERR_NULL_POINTER", :NullPointerError],
    [4, "MVVM_ERR_INVALID_ARGUMENT", :InvalidArgumentError],
    [5, "MVVM_ERR_UNKNOWN_NAME", :UnknownNameError],
    [6, "MVVM_ERR_READ_ONLY", :ReadOnlyError],
    [7, "MVVM_ERR_TYPE_MISMATCH", :TypeMismatchError],
    [8, "MVVM_ERR_WRONG_LOOP_KIND", :WrongLoopKindError],
    [9, "MVVM_ERR_UNKNOWN_REQUEST", :UnknownRequestError],
    [10, "MVVM_ERR_INTERNAL", :InternalError],
    [11, "MVVM_ERR_LOOP_RELEASED", :LoopReleasedError]
  ].freeze

  STATUS_CLASSES = STATUS_TABLE.to_h do |status, c_name, class_name|
    klass = Class.new(Error)
    klass.const_set(:STATUS, status)
    klass.const_set(:STATUS_NAME, c_name)
    const_set(class_name, klass)
    [status, klass]
  end.freeze

  # Something these bindings refuse before calling the library (see Base#subscribe on a
  # thread loop). Not a library status: #status is nil.
  class UnsupportedError < Error; end
end
