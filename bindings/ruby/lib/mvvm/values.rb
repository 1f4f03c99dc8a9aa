# frozen_string_literal: true

module Mvvm
  # Ruby values to mvvm_value and back. Only the form is converted here: which values a member
  # takes, and how they convert to its type, the library alone decides (mvvm_set, mvvm_call,
  # mvvm_new refuse the rest with a message naming the member and the argument).
  #
  # In: nil is null; true and false; an Integer (above 2**63 - 1 as an unsigned); a Float; a
  # String as text (converted to UTF-8 when in another encoding), or as bytes when it is binary
  # (String#b, Encoding::BINARY) or holds a NUL; a Symbol as its name; an Array as an array; a
  # Hash as a map of fields by name (a record); a Struct (a record read from the library, or
  # any Struct) as its fields by name; an Mvvm object (a model, a loop, a service) as its handle;
  # anything that responds to call (a block, a lambda, a Method) as a host service.
  #
  # Out: null is nil; strings are read by their length (a NUL inside is kept); bytes are a
  # binary String; an array an Array; a record a frozen Struct of its record's class
  # (Library#records), its arrays and records frozen too.
  #
  # Foundation's values (the description's "uuid", "date", "url", "decimal"): a Time (any zone)
  # goes as a date's seconds since 1970; a date property, command result or record field is read
  # as a Time in UTC; a UUID, URL or Decimal is its text (a String), as the library gives it.
  module Values
    VALUE = Native::VALUE
    INT64 = (-2**63..2**63 - 1).freeze
    UINT64 = (2**63..2**64 - 1).freeze

    # mvvm_value[values.size] in C memory for Ruby values, kept alive with everything they point
    # to as long as the packer is. Host services made for callables are closed by #finish (the
    # view model made with one holds it).
    class Packer
      # The library the values go to (an Mvvm::Library), and the loop of the call (for
      # services), or nil.
      def initialize(library, loop = nil)
        @library = library
        @loop = loop
        @keep = []
        @services = []
      end

      # The C array of `values` (a null pointer for none).
      def pack(values)
        return Fiddle::NULL if values.empty?

        packed = values.map { |value| fields(value).pack(VALUE.pack) }.join
        memory(packed)
      end

      # A C array of NUL-terminated names, or NULL entries for nil, for mvvm_call_named.
      def names(names)
        return Fiddle::NULL if names.none?

        memory(names.map { |name| name.nil? ? 0 : keep(Native.c_string(name)).to_i }.pack("J*"))
      end

      # Closes the services made for callables: the library holds each while it needs it.
      def finish
        @services.each { |service| Mvvm.close(service) }
        @services.clear
      end

      private

      def memory(bytes)
        ptr = Fiddle::Pointer.malloc([bytes.bytesize, 1].max, Fiddle::RUBY_FREE)
        ptr[0, bytes.bytesize] = bytes
        keep(ptr)
      end

      def keep(ptr)
        @keep << ptr
        ptr
      end

      # The fields of one mvvm_value: [type, boolean, integer, number, string, object].
      def fields(value)
        case value
        when nil then [ABI::TYPE_NULL, 0, 0, 0.0, 0, 0]
        when true, false then [ABI::TYPE_BOOL, value ? 1 : 0, 0, 0.0, 0, 0]
        when Integer then integer(value)
        when Float then [ABI::TYPE_DOUBLE, 0, 0, value, 0, 0]
        when Time then [ABI::TYPE_DOUBLE, 0, 0, value.to_r.to_f, 0, 0]
        when String then string(value)
        when Symbol then text(value.name)
        when Array then items(ABI::TYPE_ARRAY, value, value.size)
        when Hash then map(value)
        when Struct then map(Values.struct_fields(value))
        when Closeable then [ABI::TYPE_OBJECT, 0, 0, 0.0, 0, Mvvm.handle(value)]
        else
          return [ABI::TYPE_OBJECT, 0, 0, 0.0, 0, service(value)] if value.respond_to?(:call)

          raise TypeError, "#{value.class} is no value of libmvvm (nil, true, false, Integer, Float, String, " \
                           "Symbol, Array, Hash, Struct, an Mvvm object or a callable)"
        end
      end

      def integer(value)
        return [ABI::TYPE_INT, 0, value, 0.0, 0, 0] if INT64.cover?(value)
        return [ABI::TYPE_UINT, 0, value - 2**64, 0.0, 0, 0] if UINT64.cover?(value)

        raise RangeError, "#{value} is beyond what a C integer holds (-2**63 to 2**64 - 1)"
      end

      def string(value)
        return bytes(value) if value.encoding == Encoding::BINARY

        value = value.encode(Encoding::UTF_8) unless [Encoding::UTF_8, Encoding::US_ASCII].include?(value.encoding)
        value.include?("\0") ? bytes(value) : text(value)
      end

      def text(value)
        bytes = value.b
        [ABI::TYPE_STRING, 0, bytes.bytesize, 0.0, memory("#{bytes}\0").to_i, 0]
      end

      def bytes(value)
        bytes = value.b
        [ABI::TYPE_BYTES, 0, bytes.bytesize, 0.0, bytes.empty? ? 0 : memory(bytes).to_i, 0]
      end

      def items(type, values, count)
        [type, 0, count, 0.0, 0, values.empty? ? 0 : pack(values).to_i]
      end

      def map(hash)
        items(ABI::TYPE_MAP, hash.flat_map { |name, value| [name.to_s, value] }, hash.size)
      end

      def service(callable)
        if @loop && @loop.kind == :thread
          raise UnsupportedError.new(
            "a host service of an object of a thread loop would run on the library's thread, where " \
            "Fiddle cannot call Ruby; use a manual loop", status: nil
          )
        end
        service = Service.new(callable, name: "service", library: @library)
        @services << service
        Mvvm.handle(service)
      end
    end

    class << self
      # The fields of a Struct by the library's names: a record's own, or any Struct's members.
      def struct_fields(struct)
        values = Struct.instance_method(:to_a).bind_call(struct)
        names = struct.class.respond_to?(:field_names) ? struct.class.field_names : struct.class.members
        names.zip(values).to_h
      end

      # Whether a value of the description's type `type` (a Hash) is read as Ruby's own: a date,
      # or an array of them.
      def renders?(type)
        type["type"] == "date" || (type["type"] == "array" && !type["element"].nil? && renders?(type["element"]))
      end

      UUID_TEXT = /\A\h{8}-\h{4}-\h{4}-\h{4}-\h{12}\z/

      # `value`, given by the host for the description's `type` in another form the library
      # accepts, as the library gives it back: a date's seconds a Time in UTC, a decimal's Integer
      # its text, a UUID's text in upper case; an array's elements each; anything else as given
      # (the library says why it refuses it).
      def adopt(value, type)
        case type && type["type"]
        when "date" then value.is_a?(Numeric) ? Time.at(value.to_r).utc : value
        when "decimal" then value.is_a?(Integer) ? value.to_s : value
        when "uuid" then value.is_a?(String) && UUID_TEXT.match?(value) ? value.upcase : value
        when "array" then value.is_a?(Array) && foundation?(type) ? value.map { |item| adopt(item, type["element"]) } : value
        else value
        end
      end

      # Whether the description's `type` is of Foundation's kinds, or an array of them.
      def foundation?(type)
        %w[date decimal uuid url].include?(type["type"]) ||
          (type["type"] == "array" && !type["element"].nil? && foundation?(type["element"]))
      end

      # `value` as record equality compares it: a decimal's text by its number, a UUID's text in
      # upper case; anything else itself.
      def comparable(value, type)
        case type && type["type"]
        when "decimal" then value.is_a?(String) ? decimal_number(value) : value
        when "uuid" then value.is_a?(String) ? value.upcase : value
        when "array" then value.is_a?(Array) && foundation?(type) ? value.map { |item| comparable(item, type["element"]) } : value
        else value
        end
      end

      def decimal_number(text)
        require "bigdecimal"
        BigDecimal(text)
      rescue LoadError, ArgumentError
        text
      end

      # `value`, as the library gave it, in Ruby's type for the description's `type`: a date's
      # seconds since 1970 a Time in UTC (exactly those seconds), an array's elements each.
      def render(value, type)
        return value if value.nil? || type.nil? || !renders?(type)
        return Time.at(value.to_r).utc if type["type"] == "date" && value.is_a?(Numeric)
        return value.map { |item| render(item, type["element"]) } if value.is_a?(Array)

        value
      end

      # The Ruby value of the mvvm_value at `address` (nil for NULL), lent by `library` (an
      # Mvvm::Library, whose records it may hold).
      def read(address, library)
        return nil if address.zero?

        ruby(Fiddle::Pointer.new(address)[0, VALUE.size].unpack(VALUE.pack), library)
      end

      # The Ruby value of the mvvm_value at `ptr`, which the caller owns: read, then freed.
      def take(ptr, library)
        read(ptr.to_i, library)
      ensure
        library.native.fn(:mvvm_value_free).call(ptr)
      end

      # The Ruby value of an mvvm_value's fields (type, boolean, integer, number, string, object).
      def ruby(fields, library, frozen: false)
        type, boolean, integer, number, string, object = fields
        case type
        when ABI::TYPE_BOOL then boolean != 0
        when ABI::TYPE_INT then integer
        when ABI::TYPE_UINT then integer & (2**64 - 1)
        when ABI::TYPE_DOUBLE then number
        when ABI::TYPE_STRING
          text = read_bytes(string, integer).force_encoding(Encoding::UTF_8)
          frozen ? text.freeze : text
        when ABI::TYPE_BYTES
          bytes = read_bytes(string, integer)
          frozen ? bytes.freeze : bytes
        when ABI::TYPE_ARRAY
          array = items(object, integer, library, frozen)
          frozen ? array.freeze : array
        when ABI::TYPE_RECORD
          library.record(Native.read_string(string)).from_fields(items(object, integer, library, true))
        when ABI::TYPE_MAP
          items(object, integer * 2, library, frozen).each_slice(2).to_h
        when ABI::TYPE_OBJECT then object
        end
      end

      private

      def read_bytes(address, length)
        return +"".b if address.zero? || length <= 0

        Fiddle::Pointer.new(address)[0, length]
      end

      def items(address, count, library, frozen)
        return [] if count <= 0

        memory = Fiddle::Pointer.new(address)[0, VALUE.size * count]
        Array.new(count) { |i| ruby(memory.byteslice(i * VALUE.size, VALUE.size).unpack(VALUE.pack), library, frozen: frozen) }
      end
    end
  end
end
