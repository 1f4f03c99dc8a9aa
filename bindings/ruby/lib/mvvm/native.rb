# frozen_string_literal: true

require "fiddle"

module Mvvm
  # The C layer: finding and loading libmvvm.so, declaring its functions for Fiddle, turning
  # statuses into Mvvm::Error subclasses, and converting strings, values and events.
  # Nothing here is needed by a user of the classes; Mvvm::Native.library_path says which
  # library was loaded.
  module Native
    LIBRARY_NAME = "libmvvm.so"
    # (major, minor) of include/mvvm.h these bindings were written for.
    EXPECTED_VERSION = [0, 2].freeze

    # mvvm_type
    TYPE_NONE = 0
    TYPE_BOOL = 1
    TYPE_INT = 2
    TYPE_DOUBLE = 3
    TYPE_STRING = 4
    TYPE_OBJECT = 5
    TYPE_LIST = 6
    # mvvm_event_kind
    EVENT_PROPERTY = 1
    EVENT_SIGNAL = 2
    EVENT_SPLICE = 3

    # Fiddle types. Unsigned types are the negated signed ones.
    HANDLE = -Fiddle::TYPE_INT64_T # mvvm_handle (uint64_t)
    I64 = Fiddle::TYPE_INT64_T
    U64 = -Fiddle::TYPE_INT64_T
    INT = Fiddle::TYPE_INT
    BOOL = -Fiddle::TYPE_CHAR # C bool: one byte, 0 or 1
    DOUBLE = Fiddle::TYPE_DOUBLE
    PTR = Fiddle::TYPE_VOIDP
    VOID = Fiddle::TYPE_VOID
    STATUS = Fiddle::TYPE_INT

    # Layout of the structs on LP64 (checked against offsetof/sizeof of a C compiler):
    # mvvm_value {int type @0; bool boolean @4; (pad 3) int64_t integer @8; double number @16;
    #             const char *string @24; mvvm_handle object @32} = 40 bytes.
    # mvvm_event {int kind @0; (pad 4) const char *name @8; mvvm_value value @16;
    #             int64_t index @56, removed @64, inserted @72} = 80 bytes.
    VALUE_SIZE = 40
    VALUE_PACK = "l C x3 q d Q Q"
    EVENT_SIZE = 80
    EVENT_PACK = "l x4 Q l C x3 q d Q Q q q q"

    # Every function of include/mvvm.h the bindings call: name => [argument types, return type].
    H = HANDLE
    P = PTR
    SIGNATURES = {
      mvvm_version: [[], P],
      mvvm_last_error: [[], P],
      mvvm_status_name: [[INT], P],
      mvvm_string_free: [[P], VOID],
      # loops
      mvvm_loop_new: [[INT, P], STATUS],
      mvvm_loop_fd: [[H, P], STATUS],
      mvvm_loop_dispatch: [[H, P], STATUS],
      mvvm_loop_next_timeout_ms: [[H, P], STATUS],
      mvvm_loop_run_for: [[H, I64], STATUS],
      mvvm_loop_advance: [[H, I64], STATUS],
      mvvm_loop_now_ms: [[H, P], STATUS],
      # generic object calls
      mvvm_get_bool: [[H, P, P], STATUS],
      mvvm_get_int: [[H, P, P], STATUS],
      mvvm_get_double: [[H, P, P], STATUS],
      mvvm_get_string: [[H, P, P], STATUS],
      mvvm_set_bool: [[H, P, BOOL], STATUS],
      mvvm_set_int: [[H, P, I64], STATUS],
      mvvm_set_double: [[H, P, DOUBLE], STATUS],
      mvvm_set_string: [[H, P, P], STATUS],
      mvvm_send: [[H, P, P], STATUS],
      mvvm_child: [[H, P, P], STATUS],
      # lists of child view models
      mvvm_list_count: [[H, P, P], STATUS],
      mvvm_list_item: [[H, P, I64, P], STATUS],
      mvvm_object_id: [[H, P], STATUS],
      mvvm_class_name: [[H, P], STATUS],
      mvvm_describe: [[H, P], STATUS],
      mvvm_snapshot: [[H, P], STATUS],
      mvvm_release: [[H], STATUS],
      # notifications
      mvvm_subscribe: [[H, P, P, P, P, P], STATUS],
      mvvm_unsubscribe: [[H], STATUS],
      # host services
      mvvm_complete: [[H, P], STATUS],
      mvvm_complete_soon: [[H, P], STATUS],
      mvvm_service_new: [[P, P, P, P], STATUS],
      # classes: every class is described by mvvm_classes and made by mvvm_new; no per-class
      # function is declared here
      mvvm_classes: [[P], STATUS],
      mvvm_new: [[H, P, P, U64, P], STATUS]
    }.freeze

    @lock = Mutex.new
    @functions = nil
    @library_path = nil

    class << self
      # The path of the loaded library (loading it if needed).
      def library_path
        load!
        @library_path
      end

      # The library's version string, "MAJOR.MINOR.PATCH".
      def version
        fn(:mvvm_version).call.to_s
      end

      # Where the library is looked for, in order: MVVM_LIBRARY alone when set (a path to
      # libmvvm.so or to its folder), else .build/debug then .build/release under the first
      # folder holding Package.swift above this file.
      def candidates
        env = ENV.fetch("MVVM_LIBRARY", "")
        unless env.empty?
          path = File.directory?(env) ? File.join(env, LIBRARY_NAME) : env
          return [File.expand_path(path)]
        end
        root = repository_root
        return [] unless root

        %w[debug release].map { |config| File.join(root, ".build", config, LIBRARY_NAME) }
      end

      def repository_root(start = __dir__)
        dir = File.expand_path(start)
        loop do
          return dir if File.file?(File.join(dir, "Package.swift"))

          parent = File.dirname(dir)
          return nil if parent == dir

          dir = parent
        end
      end

      # Loads the library once; raises Mvvm::LibraryError naming every path tried.
      def load!
        return @functions if @functions

        @lock.synchronize do
          @functions ||= begin
            handle, path = open_library
            functions = SIGNATURES.to_h do |name, (args, ret)|
              [name, Fiddle::Function.new(handle[name.to_s], args, ret, name: name.to_s)]
            end
            @library_path = path
            @handle = handle
            functions
          end
        end
      end

      def fn(name)
        (@functions || load!).fetch(name)
      end

      # Calls a status-returning function; raises the Error subclass of a failing status with
      # this thread's mvvm_last_error(), then any exception a subscriber's block raised during
      # the call (see Mvvm::Callbacks).
      def call(name, *args)
        status = fn(name).call(*args)
        if status != 0
          message = fn(:mvvm_last_error).call.to_s.dup.force_encoding(Encoding::UTF_8)
          Callbacks.raise_pending
          raise Error.class_for(status).new(message, status: status, function: name.to_s)
        end
        Callbacks.raise_pending
        nil
      end

      # The C name of a status, such as "MVVM_ERR_READ_ONLY".
      def status_name(status)
        fn(:mvvm_status_name).call(status).to_s
      end

      # --- out-pointers --------------------------------------------------------------------

      def out(size = 8)
        ptr = Fiddle::Pointer.malloc(size, Fiddle::RUBY_FREE)
        ptr[0, size] = "\0" * size
        ptr
      end

      # Calls `name` with a trailing out-pointer and unpacks it with `format`.
      def call_out(name, *args, format: "Q")
        ptr = out
        call(name, *args, ptr)
        ptr[0, 8].unpack1(format)
      end

      def call_out_bool(name, *args)
        ptr = out
        call(name, *args, ptr)
        ptr[0, 1].unpack1("C") != 0
      end

      # A string out: copied into a Ruby String (UTF-8), then freed with mvvm_string_free.
      def call_out_string(name, *args)
        address = call_out(name, *args)
        begin
          read_string(address)
        ensure
          fn(:mvvm_string_free).call(address) unless address.zero?
        end
      end

      # --- strings and values --------------------------------------------------------------

      # A NUL-terminated copy of `value` in C memory, freed when the pointer is collected.
      # UTF-8 strings and binary strings go as their bytes (the library checks UTF-8); other
      # encodings are converted to UTF-8. Symbols are taken by name.
      def c_string(value)
        string = value.is_a?(Symbol) ? value.name : value
        raise TypeError, "no implicit conversion of #{value.class} into String" unless string.is_a?(String)

        unless [Encoding::UTF_8, Encoding::BINARY, Encoding::US_ASCII].include?(string.encoding)
          string = string.encode(Encoding::UTF_8)
        end
        bytes = string.b
        raise ArgumentError, "string contains a NUL byte: #{value.inspect}" if bytes.include?("\0")

        ptr = Fiddle::Pointer.malloc(bytes.bytesize + 1, Fiddle::RUBY_FREE)
        ptr[0, bytes.bytesize + 1] = bytes + "\0"
        ptr
      end

      def read_string(address)
        return nil if address.zero?

        Fiddle::Pointer.new(address).to_s.force_encoding(Encoding::UTF_8)
      end

      # An mvvm_value in C memory for a Ruby value: nil, true/false, Integer, Float, String.
      # A string's own C copy lives as long as the returned pointer.
      def c_value(value)
        c_values([value])
      end

      # mvvm_value[values.size] in C memory (NULL for none): each value as #value_fields makes it.
      # The strings' C copies live as long as the returned pointer.
      def c_values(values)
        return nil if values.empty?

        strings = []
        packed = values.map { |value| value_fields(value, strings).pack(VALUE_PACK) }.join
        ptr = Fiddle::Pointer.malloc(packed.bytesize, Fiddle::RUBY_FREE)
        ptr[0, packed.bytesize] = packed
        ptr.instance_variable_set(:@strings, strings)
        ptr
      end

      # The fields of an mvvm_value for nil, true/false, Integer, Float, String or Symbol, or
      # [:object, handle] (MVVM_TYPE_OBJECT); a string's C copy is appended to `strings`.
      def value_fields(value, strings)
        case value
        when nil then [TYPE_NONE, 0, 0, 0.0, 0, 0]
        when true, false then [TYPE_BOOL, value ? 1 : 0, 0, 0.0, 0, 0]
        when Integer then [TYPE_INT, 0, value, 0.0, 0, 0]
        when Float then [TYPE_DOUBLE, 0, 0, value, 0, 0]
        when String, Symbol
          strings << c_string(value)
          [TYPE_STRING, 0, 0, 0.0, strings.last.to_i, 0]
        else
          return [TYPE_OBJECT, 0, 0, 0.0, 0, value[1]] if value.is_a?(Array) && value[0] == :object

          raise TypeError, "#{value.class} is not a value of libmvvm (nil, true, false, Integer, Float, String)"
        end
      end

      # Reads the mvvm_value at `address` (nil for NULL).
      def read_value(address)
        return nil if address.zero?

        type, boolean, integer, number, string = Fiddle::Pointer.new(address, VALUE_SIZE)[0, VALUE_SIZE].unpack(VALUE_PACK)
        ruby_value(type, boolean, integer, number, string)
      end

      # The Ruby value of the mvvm_value fields (type, boolean, integer, number, string address).
      def ruby_value(type, boolean, integer, number, string)
        case type
        when TYPE_BOOL then boolean != 0
        when TYPE_INT then integer
        when TYPE_DOUBLE then number
        when TYPE_STRING then read_string(string)
        end
      end

      # Reads an mvvm_event at `address`: [kind, name (String), value], the value of a splice
      # being an Mvvm::Splice.
      def read_event(address)
        kind, name, type, boolean, integer, number, string, _object, index, removed, inserted =
          Fiddle::Pointer.new(address, EVENT_SIZE)[0, EVENT_SIZE].unpack(EVENT_PACK)
        value = if kind == EVENT_SPLICE
                  Splice.new(index, removed, inserted).freeze
                else
                  ruby_value(type, boolean, integer, number, string)
                end
        [kind, read_string(name), value]
      end

      private

      def open_library
        # The Swift runtime's crash handler runs before Ruby's, starts swift-backtrace, and then
        # Ruby's handler aborts the process under it: swift-backtrace is left holding the
        # process's stdout and stderr for good, so whatever reads them (a pipe, a CI job) waits
        # forever. Ruby prints its own crash report ([BUG], with a C backtrace): the Swift one is
        # off unless SWIFT_BACKTRACE says otherwise. Read when the runtime loads, below.
        ENV["SWIFT_BACKTRACE"] = "enable=no" unless ENV.key?("SWIFT_BACKTRACE")
        tried = []
        paths = candidates
        if paths.empty?
          raise LibraryError.new(
            "#{LIBRARY_NAME} not found: MVVM_LIBRARY is not set and no folder holding Package.swift " \
            "was found above #{__dir__}. Set MVVM_LIBRARY to libmvvm.so or the folder holding it.", tried
          )
        end
        paths.each do |path|
          unless File.file?(path)
            tried << [path, "no such file"]
            next
          end
          begin
            handle = Fiddle.dlopen(path)
          rescue Fiddle::DLError => e
            tried << [path, "cannot load: #{e.message}"]
            next
          end
          version = Fiddle::Function.new(handle["mvvm_version"], [], PTR).call.to_s
          major, minor = version.split(".").map(&:to_i)
          if major == EXPECTED_VERSION[0] && minor >= EXPECTED_VERSION[1]
            begin
              handle["mvvm_classes"]
            rescue Fiddle::DLError
              tried << [path, "version #{version} without mvvm_classes (the classes' descriptions these bindings need)"]
              next
            end
            return [handle, path]
          end

          tried << [path, "version #{version}, these bindings need #{EXPECTED_VERSION.join('.')} or a later minor"]
        rescue Fiddle::DLError => e
          tried << [path, "not libmvvm: #{e.message}"]
        end
        where = tried.map { |path, what| "  #{path}: #{what}" }.join("\n")
        hint = ENV.fetch("MVVM_LIBRARY", "").empty? ? "build it (swift build) or set MVVM_LIBRARY" : "MVVM_LIBRARY is set, so nothing else was tried"
        raise LibraryError.new("cannot load #{LIBRARY_NAME}; tried:\n#{where}\n(#{hint})", tried)
      end
    end
  end
end
