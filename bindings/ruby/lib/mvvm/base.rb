# frozen_string_literal: true

require "json"
require "weakref"

module Mvvm
  # What every model and view model has: property readers (and writers for bindings), command
  # methods, children, subscriptions, the generic calls, and #close.
  #
  # No class is written here: Mvvm::Classes makes one subclass per class the library describes
  # (mvvm_classes), and declares its properties, commands, signals, children and constructors
  # from that description. The readers and writers call the library's generic calls, so a value
  # of the wrong type is refused by the library itself (Mvvm::TypeMismatchError).
  class Base
    include Closeable

    # C class name => Ruby class, filled by Mvvm::Classes from the library's description.
    CLASSES = {}

    # A property: its type is :bool, :int, :double, :string or :list (then `item_class` is the
    # C class of its items).
    Property = Struct.new(:name, :type, :access, :item_class) do
      def writable? = access == :rw
      def list? = type == :list
    end

    # A constructor: its name ("new", "new_with_seed"...), doc and arguments, each an Argument.
    Constructor = Struct.new(:name, :doc, :arguments) do
      def signature = "(loop#{arguments.map { |a| ", #{a.name}: #{a.type}" }.join})"
    end
    # A constructor argument: type :bool, :int, :double, :string, :object (a model: `classes`
    # lists the C classes it may be) or :service; c_type "uint64_t" for unsigned integers.
    Argument = Struct.new(:name, :type, :c_type, :classes)

    INT64 = (-2**63..2**63 - 1).freeze
    UINT64 = (0..2**64 - 1).freeze

    class << self
      # The C class name, such as "sign_up_view_model".
      attr_reader :c_name
      # The Swift class name, such as "SignUpViewModel".
      attr_reader :swift_name

      def properties = (@properties ||= {})
      def commands = (@commands ||= {})
      def signals = (@signals ||= {})
      def children = (@children ||= {})
      def constructors = (@constructors ||= [])

      # The class's description from the library (a Hash parsed from mvvm_classes' JSON), or nil
      # for Base itself.
      def description
        @description
      end

      # The class's doc string, or with a name, the doc of that property, command, signal,
      # child or constructor (:new, :new_with_seed...); nil for a name the class does not have.
      def doc(member = nil)
        return @description && @description["doc"] if member.nil?

        (@docs || {})[member.to_sym]
      end

      # Every C class name known => Ruby class.
      def classes
        Classes.build!
        CLASSES
      end

      # The Ruby object made for `handle`, while it lives (for a host service's request).
      def live_object(handle)
        ref = LIVE[handle]
        ref&.weakref_alive? ? ref.__getobj__ : nil
      rescue WeakRef::RefError
        nil
      end

      # Remembers `object` as the one of `handle`, weakly; forgets the collected ones now and then.
      def remember(handle, object)
        LIVE.delete_if { |_, ref| !ref.weakref_alive? } if (@remembered = (@remembered || 0) + 1) % 1024 == 0
        LIVE[handle] = WeakRef.new(object)
      end

      # Converts the Ruby `value` for an argument of `type` (:bool, :int, :double, :string) named
      # `what`: TypeError for another Ruby type, RangeError for an integer out of range.
      def convert_argument(value, type, what, c_type = nil)
        case type
        when :bool
          raise TypeError, "#{what} must be true or false, not #{value.class}" unless [true, false].include?(value)
        when :int
          raise TypeError, "#{what} must be an Integer, not #{value.class}" unless value.is_a?(Integer)

          if c_type == "uint64_t"
            raise RangeError, "#{what} must be in 0...2**64, not #{value}" unless UINT64.cover?(value)

            return value >= 2**63 ? value - 2**64 : value
          end
          raise RangeError, "#{what} must be in -2**63...2**63, not #{value}" unless INT64.cover?(value)
        when :double
          raise TypeError, "#{what} must be a Float, not #{value.class}" unless value.is_a?(Float) || value.is_a?(Integer)

          return value.to_f
        when :string
          raise TypeError, "#{what} must be a String, not #{value.class}" unless value.is_a?(String) || value.is_a?(Symbol)
        end
        value
      end

      private

      # Picks the constructor the arguments fit (by count, then type) and converts them:
      # [constructor, {name => Ruby value}, [C values]]. Positional arguments fill a
      # constructor's arguments in order, keywords by name; a block fills a service argument.
      def bind_constructor(args, kwargs, block)
        if constructors.empty?
          raise UnsupportedError.new("#{name} has no constructor: its parent makes it (a child)", status: nil)
        end

        fitting = constructors.filter_map do |constructor|
          names = constructor.arguments.map(&:name)
          next if args.size > names.size || kwargs.keys.any? { |k| !names.include?(k) }

          bound = names.first(args.size).zip(args).to_h
          next if kwargs.keys.any? { |k| bound.key?(k) }

          bound.merge!(kwargs)
          missing = constructor.arguments.reject { |a| bound.key?(a.name) }
          if block
            next unless missing.size == 1 && missing.first.type == :service

            bound[missing.first.name] = block
          else
            next unless missing.empty?
          end
          [constructor, bound]
        end
        if fitting.empty?
          given = (args.map(&:inspect) + kwargs.map { |k, v| "#{k}: #{v.inspect}" }).join(", ")
          raise ArgumentError, "no constructor of #{name} takes (loop#{given.empty? ? '' : ", #{given}"})" \
                               "#{block ? ' and a block' : ''}; it has #{constructors.map(&:signature).join(', ')}"
        end

        failures = []
        fitting.each do |constructor, bound|
          return [constructor, bound, constructor.arguments.map { |a| c_argument(a, bound[a.name]) }]
        rescue TypeError, RangeError => e
          failures << e
        end
        raise failures.first
      end

      # One constructor argument as Native.value_fields takes it.
      def c_argument(argument, value)
        what = "#{name}.new: #{argument.name}"
        case argument.type
        when :object
          raise TypeError, "#{what} must be an Mvvm model, not #{value.class}" unless value.is_a?(Base)

          [:object, value.handle]
        when :service
          unless value.is_a?(Service) || value.respond_to?(:call)
            raise TypeError, "#{what} must be an Mvvm::Service or respond to call, not #{value.class}"
          end

          [:service, value]
        else
          convert_argument(value, argument.type, what, argument.c_type)
        end
      end
    end

    # Ruby objects by handle (WeakRefs), while they live: a host service's request names its view
    # model's. (Not an ObjectSpace::WeakMap: it compares large Integer keys by identity.)
    LIVE = {}

    # Makes an object of this class on `loop` through mvvm_new, with the constructor whose
    # arguments fit: positional, or by name (CounterPageViewModel.new(loop, seed: 7)); a block
    # is the service of a constructor that takes one. Wrong Ruby types raise TypeError, integers
    # out of range RangeError, a count no constructor takes ArgumentError; the library refuses
    # the rest (a model of the wrong class: Mvvm::WrongTypeError; of another loop, or a value it
    # rejects: Mvvm::InvalidArgumentError).
    def initialize(loop, *args, **kwargs, &block)
      raise TypeError, "expected an Mvvm::Loop, got #{loop.class}" unless loop.is_a?(Loop)

      _constructor, bound, values = self.class.send(:bind_constructor, args, kwargs, block)
      made = []
      values = values.map do |value|
        next value unless value.is_a?(Array) && value[0] == :service

        if loop.kind == :thread
          raise UnsupportedError.new(
            "a host service of an object of a thread loop would run on the library's thread, where " \
            "Fiddle cannot call Ruby; use a manual loop", status: nil
          )
        end
        service = value[1]
        unless service.is_a?(Service)
          service = Service.new(service, name: "#{self.class.name} service")
          made << service
        end
        [:object, service.handle]
      end
      c_name = Native.c_string(self.class.c_name)
      c_args = Native.c_values(values)
      begin
        handle = Native.call_out(:mvvm_new, loop.handle, c_name, c_args, values.size)
      ensure
        made.each(&:close) # the view model holds its service; the block lives as long as it
      end
      init_handle(handle, loop)
      @arguments = bound.select { |_, value| value.is_a?(Base) }
    end

    # The loop this object lives on.
    attr_reader :loop
    # The object whose child this is, or nil.
    attr_reader :parent

    # A Ruby object for a handle the library gave (a child, ...), of the class of its C class.
    def self.wrap(handle, loop, parent: nil)
      c_name = Native.call_out(:mvvm_class_name, handle)
      klass = classes.fetch(Native.read_string(c_name)) { Base }
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
      when :list
        Native.call(:mvvm_list_count, handle, c_name, Native.out) # refuses a closed object now
        List.new(self, name)
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

    # The model given to the constructor as its argument `name` (TimerViewModel#timer,
    # CounterViewModel#model), kept while this object lives; nil for an object its parent made.
    def argument(name)
      @arguments[name.to_sym]
    end

    # The identity of the Swift object behind this handle (mvvm_object_id): one Integer for its
    # whole life, the same through every handle to it; so a list's item read twice, or one that
    # moved, is recognised. (Ruby's own #object_id is left alone.)
    def identity
      @identity ||= Native.call_out(:mvvm_object_id, handle, format: "q")
    end

    # Two objects are == when they are handles to the same Swift object (same #identity).
    def ==(other)
      return true if equal?(other)
      return false unless other.is_a?(Base) && !closed? && !other.closed?

      identity == other.identity
    rescue Error
      false
    end
    alias eql? ==

    def hash
      closed? && @identity.nil? ? super : [Base, identity].hash
    rescue Error
      super
    end

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
      LIVE.delete(handle)
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
      @arguments = {}
      adopt(handle)
      self.class.remember(handle, self)
    end

    def property_type(name)
      property = self.class.properties[name.to_sym] if name.respond_to?(:to_sym)
      return property.type if property

      described = describe["properties"]&.find { |p| p["name"] == name.to_s }
      described && described["type"].to_sym
    end
  end
end
