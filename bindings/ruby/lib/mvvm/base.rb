# frozen_string_literal: true

require "json"

module Mvvm
  # What every model and view model of the catalog has: property readers (and writers for
  # bindings), command methods, children, subscriptions, the generic calls, and #close.
  #
  # The classes of the catalog declare their C class, properties, commands, signals and children
  # with the class methods below; the readers and writers call the library's generic calls,
  # so a wrong value type is refused by the library itself (Mvvm::TypeMismatchError).
  class Base
    include Closeable

    # C class name => Ruby class, filled by c_class.
    CLASSES = {}

    Property = Struct.new(:name, :type, :access) do
      def writable? = access == :rw
    end

    class << self
      # The C class name, such as "sign_up_view_model".
      attr_reader :c_name

      def properties = (@properties ||= {})
      def commands = (@commands ||= {})
      def signals = (@signals ||= {})
      def children = (@children ||= {})

      private

      def c_class(name)
        @c_name = name
        CLASSES[name] = self
      end

      # A property: a reader (and `name?` for booleans); a writer for a binding (:rw).
      def property(name, type, access = :ro)
        properties[name] = Property.new(name, type, access)
        define_method(name) { get(name) }
        alias_method(:"#{name}?", name) if type == :bool
        define_method(:"#{name}=") { |value| set(name, value) } if access == :rw
      end

      # A command: a method taking the command's argument, if any.
      def command(name, argument = :none)
        commands[name] = argument
        if argument == :none
          define_method(name) { perform(name) }
        else
          define_method(name) { |value| perform(name, value) }
        end
      end

      def signal(name, type = :none)
        signals[name] = type
      end

      # A child view model: a reader giving the same Ruby object each time, closed with this one.
      def child(name, class_name)
        children[name] = class_name
        define_method(name) { @children[name] ||= child_object(name) }
      end
    end

    # The loop this object lives on.
    attr_reader :loop
    # The object whose child this is, or nil.
    attr_reader :parent

    # A Ruby object for a handle the library gave (a child, ...), of the class of its C class.
    def self.wrap(handle, loop, parent: nil)
      c_name = Native.call_out(:mvvm_class_name, handle)
      klass = CLASSES.fetch(Native.read_string(c_name)) { Base }
      object = klass.allocate
      object.send(:init_handle, handle, loop, parent)
      object
    end

    # --- properties ---------------------------------------------------------------------------

    # The value of the property `name` (Symbol or String), with its type from the class (or from
    # the library's description for a name the class does not declare).
    def get(name)
      type = property_type(name)
      c_name = Native.c_string(name)
      case type
      when :bool then Native.call_out_bool(:mvvm_get_bool, handle, c_name)
      when :int then Native.call_out(:mvvm_get_int, handle, c_name, format: "q")
      when :double then Native.call_out(:mvvm_get_double, handle, c_name, format: "d")
      when :string then Native.call_out_string(:mvvm_get_string, handle, c_name)
      else Native.call_out(:mvvm_get_int, handle, c_name, format: "q") # lets the library name the error
      end
    end
    alias [] get

    # Sets the binding `name` to `value`: true/false, Integer, Float or String picks the C setter;
    # the library refuses outputs (Mvvm::ReadOnlyError) and other types (Mvvm::TypeMismatchError).
    def set(name, value)
      c_name = Native.c_string(name)
      case value
      when true, false then Native.call(:mvvm_set_bool, handle, c_name, value ? 1 : 0)
      when Integer then Native.call(:mvvm_set_int, handle, c_name, value)
      when Float then Native.call(:mvvm_set_double, handle, c_name, value)
      when String, Symbol then Native.call(:mvvm_set_string, handle, c_name, Native.c_string(value))
      else raise TypeError, "#{value.class} is not a value of libmvvm (true, false, Integer, Float, String)"
      end
      value
    end
    alias []= set

    # --- commands, children ---------------------------------------------------------------------

    # Sends the command `name`, with `argument` when it takes one (nil: none).
    def perform(name, argument = nil)
      value = argument.nil? ? nil : Native.c_value(argument)
      Native.call(:mvvm_send, handle, Native.c_string(name), value)
      self
    end

    # A new object for the child view model `name` (each call a new handle; the named readers
    # such as TimerViewModel#display cache theirs). The caller closes it (or it is collected).
    def child_object(name)
      out = Native.call_out(:mvvm_child, handle, Native.c_string(name))
      Base.wrap(out, @loop, parent: self)
    end

    # --- notifications --------------------------------------------------------------------------

    # Calls the block with (name, value, event) for each change of the property or signal `name`,
    # or of every property and signal when `name` is nil. Names are Symbols. Returns a
    # Mvvm::Subscription; it lasts until #unsubscribe or until this object or its loop is closed,
    # whether or not anything keeps the subscription or the block.
    #
    # Objects of a thread loop cannot be subscribed to: the library would call the block on its
    # own thread, where Fiddle cannot enter Ruby (the process would abort). Poll them, or use a
    # manual loop, whose changes arrive on the thread that dispatches.
    def subscribe(name = nil, &block)
      raise ArgumentError, "subscribe needs a block" unless block
      if @loop&.kind == :thread
        raise UnsupportedError.new(
          "cannot subscribe to an object of a thread loop from Ruby: the library's thread would run " \
          "the block, and Fiddle cannot call Ruby from a thread Ruby did not create; use a manual loop",
          status: nil
        )
      end

      c_name = name.nil? ? nil : Native.c_string(name)
      out = Native.out
      key = Callbacks.register(Callbacks::Entry.new(block, self, name))
      # On failure the library runs DESTROY before returning, which unregisters the key.
      Native.call(:mvvm_subscribe, handle, c_name, Callbacks::TRAMPOLINE.to_i, key,
                  Callbacks::DESTROY.to_i, out)
      Subscription.new(self, name&.to_sym, out[0, 8].unpack1("Q"), key)
    end

    # --- description ------------------------------------------------------------------------------

    # The C class name, such as "sign_up_view_model" (from the library).
    def class_name
      Native.read_string(Native.call_out(:mvvm_class_name, handle))
    end

    # What the class offers, from the library: a Hash parsed from mvvm_describe's JSON.
    def describe
      JSON.parse(Native.call_out_string(:mvvm_describe, handle))
    end

    # Every property's current value, from the library: {"count" => 3, ...}.
    def snapshot
      JSON.parse(Native.call_out_string(:mvvm_snapshot, handle))
    end
    alias to_h snapshot

    # Releases the handle, and first the children the readers gave. The library ends the
    # object's subscriptions. Closing twice does nothing.
    def close
      @children.each_value(&:close)
      super
    end

    def inspect
      "#<#{self.class.name} #{closed? ? 'closed' : "handle=#{handle}"}>"
    end

    private

    def init_handle(handle, loop, parent = nil)
      @loop = loop
      @parent = parent
      @children = {}
      adopt(handle)
    end

    # Runs the constructor `function` with the loop's handle, `args` and an out-pointer.
    def construct(function, loop, *args)
      raise TypeError, "expected an Mvvm::Loop, got #{loop.class}" unless loop.is_a?(Loop)

      init_handle(Native.call_out(function, loop.handle, *args), loop)
    end

    def property_type(name)
      property = self.class.properties[name.to_sym] if name.respond_to?(:to_sym)
      return property.type if property

      described = describe["properties"]&.find { |p| p["name"] == name.to_s }
      described && described["type"].to_sym
    end
  end
end
