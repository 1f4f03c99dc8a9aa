# frozen_string_literal: true

require "fiddle"
require "monitor"
require_relative "abi"

module Mvvm
  # The C layer: opening a library, declaring its functions for Fiddle from Mvvm::ABI (generated
  # from include/mvvm.h), turning statuses into Mvvm::Error subclasses, and laying out the
  # header's structs. Nothing here is needed by a user of the classes.
  module Native
    # (major, minor) of include/mvvm.h these bindings were written for.
    EXPECTED_VERSION = [ABI::VERSION_MAJOR, ABI::VERSION_MINOR].freeze

    # Where each field of a struct of the header is, from Fiddle's sizes and alignments:
    # `size`, `pack` (an Array#pack format of the whole struct, nested structs flattened) and
    # `fields` (the names in that order, a nested struct's as "value.type"...).
    class Layout
      # Fiddle type => [pack directive, size, alignment]
      SCALARS = {
        ABI::BOOL => ["C", 1, 1],
        ABI::INT => ["i!", Fiddle::SIZEOF_INT, Fiddle::ALIGN_INT],
        ABI::INT64 => ["q", Fiddle::SIZEOF_INT64_T, Fiddle::ALIGN_INT64_T],
        ABI::UINT64 => ["Q", Fiddle::SIZEOF_INT64_T, Fiddle::ALIGN_INT64_T],
        ABI::DOUBLE => ["d", Fiddle::SIZEOF_DOUBLE, Fiddle::ALIGN_DOUBLE],
        ABI::POINTER => ["J", Fiddle::SIZEOF_VOIDP, Fiddle::ALIGN_VOIDP]
      }.freeze

      attr_reader :size, :alignment, :pack, :fields

      def initialize(name)
        @pack = +""
        @fields = []
        @alignment = 1
        offset = 0
        ABI::STRUCTS.fetch(name).each do |field, type|
          directive, size, alignment, names =
            if type.is_a?(String)
              nested = Layout.of(type)
              [nested.pack, nested.size, nested.alignment, nested.fields.map { |f| "#{field}.#{f}" }]
            else
              [*SCALARS.fetch(type), [field]]
            end
          padding = -offset % alignment
          @pack << "x#{padding} " if padding.positive?
          @pack << directive << " "
          @fields.concat(names)
          offset += padding + size
          @alignment = [@alignment, alignment].max
        end
        padding = -offset % @alignment
        @pack << "x#{padding}" if padding.positive?
        @pack = @pack.strip.freeze
        @fields.freeze
        @size = offset + padding
      end

      def self.of(name)
        (@layouts ||= {})[name] ||= new(name)
      end
    end

    VALUE = Layout.of("mvvm_value")
    EVENT = Layout.of("mvvm_event")

    # One opened library: its functions, and the calls that raise its statuses as Mvvm::Error.
    class Library
      # The path it was opened from.
      attr_reader :path

      def initialize(path, handle)
        @path = path
        @handle = handle
        @functions = ABI::FUNCTIONS.to_h do |name, (args, ret)|
          [name, Fiddle::Function.new(handle[name.to_s], args, ret, name: name.to_s)]
        end.freeze
      end

      def fn(name)
        @functions.fetch(name)
      end

      # The library's version string, "MAJOR.MINOR.PATCH".
      def version
        fn(:mvvm_version).call.to_s
      end

      # Calls a status-returning function; raises the Error subclass of a failing status with
      # this thread's mvvm_last_error(), then any exception a subscriber's block raised during
      # the call (see Mvvm::Callbacks).
      def call(name, *args)
        check(fn(name).call(*args), name)
      end

      # Raises as #call does for the `status` a call of the function `name` gave.
      def check(status, name)
        if status != ABI::OK
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

      # Calls `name` with a trailing out-pointer and unpacks it with `format`.
      def call_out(name, *args, format: "Q")
        ptr = Native.out
        call(name, *args, ptr)
        ptr[0, 8].unpack1(format)
      end

      def call_out_bool(name, *args)
        ptr = Native.out
        call(name, *args, ptr)
        ptr[0, 1].unpack1("C") != 0
      end

      # A string out: copied into a Ruby String (UTF-8), then freed with mvvm_string_free.
      def call_out_string(name, *args)
        address = call_out(name, *args)
        begin
          Native.read_string(address)
        ensure
          fn(:mvvm_string_free).call(address) unless address.zero?
        end
      end

      def inspect
        "#<Mvvm::Native::Library #{@path}>"
      end
    end

    @lock = Monitor.new
    @opened = {}

    class << self
      # The library at `path` (a file), opened once per process; Mvvm::LibraryError says why not.
      def open(path)
        path = File.expand_path(path)
        tried = []
        library = try_open(path, tried)
        return library if library

        raise LibraryError.new("cannot load #{path}: #{tried.first[1]}", tried)
      end

      # --- memory ------------------------------------------------------------------------------

      # Zeroed C memory of `size` bytes, freed when the pointer is collected.
      def out(size = 8)
        ptr = Fiddle::Pointer.malloc(size, Fiddle::RUBY_FREE)
        ptr[0, size] = "\0" * size
        ptr
      end

      # A NUL-terminated copy of a name (String or Symbol) in C memory, freed when the pointer
      # is collected. Names are C identifiers; text in another encoding is converted to UTF-8.
      def c_string(value)
        string = value.is_a?(Symbol) ? value.name : value
        raise TypeError, "no implicit conversion of #{value.class} into String" unless string.is_a?(String)

        string = string.encode(Encoding::UTF_8) unless string.encoding.ascii_compatible?
        bytes = string.b
        raise ArgumentError, "a name cannot hold a NUL byte: #{value.inspect}" if bytes.include?("\0")

        ptr = Fiddle::Pointer.malloc(bytes.bytesize + 1, Fiddle::RUBY_FREE)
        ptr[0, bytes.bytesize + 1] = bytes + "\0"
        ptr
      end

      # The NUL-terminated UTF-8 string at `address` (nil for NULL).
      def read_string(address)
        return nil if address.zero?

        Fiddle::Pointer.new(address).to_s.force_encoding(Encoding::UTF_8)
      end

      private

      # Opens `path` once; nil (with why in `tried`) when it is no library of these bindings.
      def try_open(path, tried)
        unless File.file?(path)
          # A folder is told apart: the library is a file in it, named by the host.
          tried << [path, File.directory?(path) ? "a folder, not a library file" : "no such file"]
          return nil
        end
        key = File.realpath(path)
        @lock.synchronize do
          return @opened[key] if @opened.key?(key)

          # The Swift runtime's crash handler runs before Ruby's, starts swift-backtrace, and then
          # Ruby's handler aborts the process under it: swift-backtrace is left holding the
          # process's stdout and stderr for good, so whatever reads them (a pipe, a CI job) waits
          # forever. Ruby prints its own crash report ([BUG], with a C backtrace): the Swift one
          # is off unless SWIFT_BACKTRACE says otherwise. Read when the runtime loads, below.
          ENV["SWIFT_BACKTRACE"] = "enable=no" unless ENV.key?("SWIFT_BACKTRACE")
          begin
            # RTLD_LOCAL: each library's own symbols stay its own, so that several libraries
            # (each a whole libmvvm, with its own classes) live side by side in one process.
            handle = Fiddle::Handle.new(path, Fiddle::RTLD_LAZY)
          rescue Fiddle::DLError => e
            tried << [path, "cannot load: #{e.message}"]
            return nil
          end
          handle.disable_close # a Swift library is never unloaded
          problem = incompatibility(handle)
          if problem
            tried << [path, problem]
            return nil
          end
          @opened[key] = Library.new(path, handle)
        end
      end

      def incompatibility(handle)
        version = Fiddle::Function.new(handle["mvvm_version"], [], ABI::POINTER).call.to_s
        major, minor = version.split(".").map(&:to_i)
        unless major == EXPECTED_VERSION[0] && minor >= EXPECTED_VERSION[1]
          return "version #{version}, these bindings need #{EXPECTED_VERSION.join('.')} or a later minor"
        end

        ABI::FUNCTIONS.each_key { |name| handle[name.to_s] }
        nil
      rescue Fiddle::DLError => e
        "not libmvvm #{EXPECTED_VERSION.join('.')} (#{e.message})"
      end
    end
  end
end
