# frozen_string_literal: true

require_relative "abi"

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

  # One class per failing status of the header (Mvvm::ABI), named after it:
  # MVVM_ERR_READ_ONLY is Mvvm::ReadOnlyError; MVVM_ERR_COMMAND_FAILED (a command threw) is
  # Mvvm::CommandError, its message the error's text.
  STATUS_CLASSES = ABI::ENUMS.fetch("mvvm_status").filter_map do |c_name, status|
    next if status == ABI::OK

    stem = c_name.delete_prefix("MVVM_ERR_")
    class_name = stem == "COMMAND_FAILED" ? "CommandError" : "#{stem.split('_').map(&:capitalize).join}Error"
    klass = Class.new(Error)
    klass.const_set(:STATUS, status)
    klass.const_set(:STATUS_NAME, c_name)
    const_set(class_name, klass)
    [status, klass]
  end.to_h.freeze

  # Something these bindings refuse before calling the library (a subscription on an object of a
  # thread loop, see Mvvm.subscribe). Not a library status: #status is nil.
  class UnsupportedError < Error; end
end
