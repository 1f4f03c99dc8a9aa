# frozen_string_literal: true

require "json"

module Mvvm
  # What every model and view model is: an object of one library, on one of its loops. No class
  # is written here: Mvvm::Classes makes one subclass per class the library describes, with a
  # method per member. Every operation of the bindings is a module function of Mvvm taking the
  # object (Mvvm.get(obj, :name), Mvvm.call(obj, :command, ...), Mvvm.subscribe(obj) { },
  # Mvvm.close(obj)...), which no member can shadow; Base also gives them as methods (close,
  # subscribe, describe...) for the classes whose members do not take those names.
  class Base
    include Closeable

    # A property: its type is its description's (:bool, :int, :double, :string, :bytes, :array,
    # :record, or :list, then `item_class` is the C class of its items), `optional` when it may
    # hold nil. `c_name` is its name in C memory, made once; `c_type` the description's.
    Property = Struct.new(:name, :type, :access, :item_class, :optional, :c_name, :c_type) do
      def writable? = access == :rw
      def list? = type == :list
    end

    # A command: its arguments' names in order, its result's type (:none for nothing), whether it
    # throws (Mvvm::CommandError) and whether it is async.
    Command = Struct.new(:name, :arguments, :result, :throws, :async)

    # A constructor: its name ("new", "new_with_seed"...), doc and arguments, each an Argument.
    Constructor = Struct.new(:name, :doc, :arguments) do
      def signature = "(loop#{arguments.map { |a| ", #{a.name}: #{a.type}" }.join})"
    end
    # A constructor argument: its type (:bool, :int, :object (a model: `classes` lists the C
    # classes it may be), :service...), c_type "uint64_t" for unsigned integers.
    Argument = Struct.new(:name, :type, :c_type, :classes)

    class << self
      # The library this class belongs to (an Mvvm::Library), nil for Base itself.
      attr_reader :library
      # The C class name, such as "line_item".
      attr_reader :c_name
      # The Swift class name, such as "LineItem".
      attr_reader :swift_name

      def properties = (@properties ||= {})
      def commands = (@commands ||= {})
      def signals = (@signals ||= {})
      def children = (@children ||= {})
      def constructors = (@constructors ||= [])
      # The description's type of each property, command result and signal payload read as
      # Ruby's own (a date as a Time), by name (members never share one).
      def rendered_types = (@rendered_types ||= {})

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
    end

    # Makes an object of this class on `loop` (a loop of the class's library) through
    # mvvm_new_named: the arguments by position, then by keyword (a Ruby keyword or core method
    # with a trailing underscore: class_:); a block is one more positional argument (a host
    # service). The library picks the constructor the arguments fit and converts them, or raises
    # (Mvvm::InvalidArgumentError, Mvvm::TypeMismatchError, Mvvm::WrongTypeError...) saying why.
    def initialize(loop, *args, **kwargs, &block)
      library = self.class.library or raise UnsupportedError.new("Mvvm::Base is made only through its subclasses", status: nil)
      raise TypeError, "expected an Mvvm::Loop, got #{loop.class}" unless loop.is_a?(Loop)

      args += [block] if block
      names = [nil] * args.size + kwargs.keys.map { |k| Names.library(k) }
      values = args + kwargs.values
      packer = Values::Packer.new(library, loop)
      begin
        handle = library.native.call_out(:mvvm_new_named, Mvvm.handle(loop), Native.c_string(self.class.c_name),
                                         packer.names(names), packer.pack(values), values.size)
      ensure
        packer.finish # the view model holds its services; a block lives as long as it
      end
      init_handle(handle, loop, library)
      @arguments = models(args, kwargs)
    end

    # The loop this object lives on (Mvvm.loop_of(obj) whatever its members).
    def loop = Mvvm.loop_of(self)
    # The object whose child this is, or nil.
    def parent = Mvvm.parent(self)

    def get(name) = Mvvm.get(self, name)
    alias [] get

    def set(name, value) = Mvvm.set(self, name, value)
    alias []= set

    def perform(name, *args, **kwargs) = Mvvm.call(self, name, *args, **kwargs)
    def child_object(name) = Mvvm.child(self, name)
    def argument(name) = Mvvm.argument(self, name)
    def identity = Mvvm.identity(self)
    def subscribe(name = nil, &block) = Mvvm.subscribe(self, name, &block)
    def class_name = Mvvm.class_name(self)
    def describe = Mvvm.describe(self)
    def snapshot = Mvvm.snapshot(self)
    alias to_h snapshot

    # Two objects are == when they are handles to the same Swift object (same identity).
    def ==(other)
      return true if equal?(other)
      return false unless other.is_a?(Base) && !Mvvm.closed?(self) && !Mvvm.closed?(other)

      Mvvm.library_of(self).native.equal?(Mvvm.library_of(other).native) && Mvvm.identity(self) == Mvvm.identity(other)
    rescue Error
      false
    end
    alias eql? ==

    def hash
      Mvvm.closed?(self) && @identity.nil? ? super : [Base, Mvvm.identity(self)].hash
    rescue Error
      super
    end

    def inspect
      "#<#{self.class.name} #{Mvvm.closed?(self) ? 'closed' : "handle=#{Mvvm.handle(self)}"}>"
    end

    private

    def init_handle(handle, loop, library, parent = nil)
      @loop = loop
      @library = library
      @parent = parent
      @children = {}
      @arguments = {}
      adopt(handle, library.native)
      library.remember(handle, self)
    end

    # The models among the arguments, by the name of the argument each was given as: a keyword's
    # own, a positional one's in the constructor the library chose (mvvm_describe's "constructor").
    def models(args, kwargs)
      found = kwargs.select { |_, value| value.is_a?(Base) }.transform_keys { |k| Names.library(k).to_sym }
      return found unless args.any? { |value| value.is_a?(Base) }

      chosen = Mvvm.describe(self)["constructor"]
      constructor = self.class.constructors.find { |c| c.name.to_s == chosen }
      args.each_with_index do |value, index|
        argument = constructor&.arguments&.[](index)
        found[argument.name] = value if value.is_a?(Base) && argument&.type == :object
      end
      found
    end
  end

  class << self
    # --- what every object has, whatever its members are named ----------------------------------

    # The C handle of a loop, object or service (an Integer; it stays the same after closing).
    def handle(object)
      box(object).handle
    end

    # Releases a loop, object or service; an object's children (those its readers gave) first.
    # Closing twice does nothing.
    def close(object)
      object.instance_variable_get(:@children)&.each_value { |child| close(child) }
      library = object.instance_variable_get(:@library)
      library.forget(handle(object)) if library.is_a?(Library)
      ObjectSpace.undefine_finalizer(object)
      box(object).release
      nil
    end

    def closed?(object)
      box(object).released?
    end

    # The library an object, loop or service belongs to (an Mvvm::Library).
    def library_of(object)
      object.instance_variable_get(:@library)
    end

    # The loop an object lives on.
    def loop_of(object)
      object.instance_variable_get(:@loop)
    end

    # The object whose child `object` is, or nil.
    def parent(object)
      object.instance_variable_get(:@parent)
    end

    # The model given to the constructor as its argument `name` (such as :timer), kept
    # while the object lives; nil for an object its parent made.
    def argument(object, name)
      object.instance_variable_get(:@arguments)[Names.library(name).to_sym]
    end

    # The identity of the Swift object behind a handle (mvvm_object_id): one Integer for its
    # whole life, the same through every handle to it, so a list's item read twice, or one that
    # moved, is recognised. (Ruby's own #object_id is left alone.)
    def identity(object)
      object.instance_variable_get(:@identity) ||
        object.instance_variable_set(:@identity, native_of(object).call_out(:mvvm_object_id, handle(object), format: "q"))
    end

    # --- properties, commands, children -------------------------------------------------------

    # The value of the property `name` (its library's name: :class, not :class_), through
    # mvvm_get; a list property as an Mvvm::List.
    def get(object, name)
      property = object.class.properties[name.to_sym] if object.class.respond_to?(:properties)
      native = native_of(object)
      c_name = property ? property.c_name : Native.c_string(name)
      # A UInt64 (c_type uint64_t) through mvvm_get, which gives it as MVVM_TYPE_UINT: its number.
      case property && !property.optional && property.c_type != "uint64_t" && property.type
      when :bool then native.call_out_bool(:mvvm_get_bool, handle(object), c_name)
      when :int then native.call_out(:mvvm_get_int, handle(object), c_name, format: "q")
      when :double then native.call_out(:mvvm_get_double, handle(object), c_name, format: "d")
      when :list
        native.call(:mvvm_list_count, handle(object), c_name, Native.out) # refuses a closed object now
        List.new(object, property.name)
      else
        out = Native.out(Native::VALUE.size)
        native.call(:mvvm_get, handle(object), c_name, out)
        rendered(object, name, Values.take(out, library_of(object)))
      end
    end

    # `value` of the member `name` as Ruby's own type, when its kind has one (Values.render).
    def rendered(object, name, value)
      type = object.class.rendered_types[name.to_sym] if object.class.respond_to?(:rendered_types)
      type ? Values.render(value, type) : value
    end

    # Sets the binding `name` to `value`, converted by the library (mvvm_set): the library
    # refuses outputs (Mvvm::ReadOnlyError) and values of another kind (Mvvm::TypeMismatchError,
    # Mvvm::InvalidArgumentError). Returns `value`.
    def set(object, name, value)
      property = object.class.properties[name.to_sym] if object.class.respond_to?(:properties)
      native = native_of(object)
      c_name = property ? property.c_name : Native.c_string(name)
      typed = property && !property.optional && typed_setter(property.type, value)
      if typed
        native.call(typed, handle(object), c_name, typed == :mvvm_set_bool ? (value ? 1 : 0) : typed_value(value))
      else
        packer = Values::Packer.new(library_of(object), loop_of(object))
        begin
          native.call(:mvvm_set, handle(object), c_name, packer.pack([value]))
        ensure
          packer.finish
        end
      end
      value
    end

    # Runs the command `name` with `args` by position, then `kwargs` by name (mvvm_call_named),
    # and gives its result (nil when it returns nothing). The library binds and converts the
    # arguments; a command that throws raises Mvvm::CommandError with its error's text.
    def call(object, name, *args, **kwargs)
      native = native_of(object)
      names = [nil] * args.size + kwargs.keys.map { |k| Names.library(k) }
      values = args + kwargs.values
      packer = Values::Packer.new(library_of(object), loop_of(object))
      result = Native.out(Native::VALUE.size)
      begin
        native.call(:mvvm_call_named, handle(object), Native.c_string(name), packer.names(names),
                    packer.pack(values), values.size, result)
      ensure
        packer.finish
      end
      rendered(object, name, Values.take(result, library_of(object)))
    end

    # A new object for the child view model `name` (each call a new handle; a class's reader of
    # its child keeps one). The caller closes it (or it is collected).
    def child(object, name)
      out = native_of(object).call_out(:mvvm_child, handle(object), Native.c_string(name))
      library_of(object).wrap(out, loop_of(object), parent: object)
    end

    # --- notifications --------------------------------------------------------------------------

    # Calls the block with (name, value, event) for each change of the property or signal `name`
    # of `object`, or of every property and signal when `name` is nil. Names are Symbols (the
    # library's: :class, not :class_). Returns an Mvvm::Subscription; it lasts until it is
    # unsubscribed or its object or loop is closed, whether or not anything keeps it or the block.
    #
    # Objects of a thread loop cannot be subscribed to: the library would call the block on its
    # own thread, where Fiddle cannot enter Ruby (the process would abort). Poll them, or use a
    # manual loop, whose changes arrive on the thread that dispatches.
    def subscribe(object, name = nil, &block)
      raise ArgumentError, "subscribe needs a block" unless block
      refuse_thread_loop(object, "subscribe to an object", "run the block")

      c_name = name.nil? ? nil : Native.c_string(name)
      out = Native.out
      key = Callbacks.register(Callbacks::Entry.new(block, object, name))
      # On failure the library runs DESTROY before returning, which unregisters the key.
      native_of(object).call(:mvvm_subscribe, handle(object), c_name, Callbacks::TRAMPOLINE.to_i, key,
                             Callbacks::DESTROY.to_i, out)
      Subscription.new(object, name&.to_sym, out[0, 8].unpack1("Q"), key)
    end

    # --- description ------------------------------------------------------------------------------

    # The C class name, such as "line_item" (from the library).
    def class_name(object)
      Native.read_string(native_of(object).call_out(:mvvm_class_name, handle(object)))
    end

    # What the class offers, from the library: a Hash parsed from mvvm_describe's JSON.
    def describe(object)
      JSON.parse(native_of(object).call_out_string(:mvvm_describe, handle(object)))
    end

    # Every property's current value, from the library: {"count" => 3, ...}.
    def snapshot(object)
      JSON.parse(native_of(object).call_out_string(:mvvm_snapshot, handle(object)))
    end

    private

    # Refuses (Mvvm::UnsupportedError) to `what` an object of a thread loop: the library's thread
    # would `would`, calling Ruby from a thread Ruby did not create, which Fiddle cannot do.
    def refuse_thread_loop(object, what, would)
      return unless loop_of(object)&.kind == :thread

      raise UnsupportedError.new(
        "cannot #{what} of a thread loop from Ruby: the library's thread would #{would}, and Fiddle cannot " \
        "call Ruby from a thread Ruby did not create; use a manual loop",
        status: nil
      )
    end

    def box(object)
      object.instance_variable_get(:@box) or raise TypeError, "#{object.class} is no object of libmvvm"
    end

    def native_of(object)
      box(object).library
    end

    def typed_setter(type, value)
      case value
      when true, false then type == :bool && :mvvm_set_bool
      when Integer then type == :int && Values::INT64.cover?(value) && :mvvm_set_int
      when Float then type == :double && :mvvm_set_double
      when String
        type == :string && [Encoding::UTF_8, Encoding::US_ASCII].include?(value.encoding) &&
          !value.include?("\0") && :mvvm_set_string
      end
    end

    def typed_value(value)
      value.is_a?(String) ? Native.c_string(value) : value
    end
  end
end
