# frozen_string_literal: true

require "json"
require "monitor"

module Mvvm
  # The Ruby classes of the library's classes, made at run time from mvvm_classes, as PyGObject
  # makes its classes from a typelib: a class registered in Swift is usable from Ruby with no
  # Ruby written for it. Each is a subclass of Mvvm::Base named as in Swift (Mvvm::SignUpViewModel,
  # Mvvm::Greeter), also reachable by its C name in CamelCase when that differs
  # (Mvvm::WelcomeViewModel is Mvvm::WelcomeScreen), with:
  #
  # - a reader per property (and `name?` for booleans), a writer per binding (read-write
  #   property): outputs have none, and obj[name] = value on one raises Mvvm::ReadOnlyError;
  #   a list property reads as an Mvvm::List of live items (Playlist#songs);
  # - a method per command, taking its argument when it has one, checked (TypeError, RangeError);
  # - a reader per child, giving the same object each time, closed with its parent;
  # - new(loop, *args, **kwargs) through mvvm_new (see Base#initialize), and a reader per model
  #   argument of its constructors (TimerViewModel#timer, CounterViewModel#model);
  # - class methods c_name, swift_name, doc (the class's, or doc(:member)), description,
  #   properties, commands, signals, children, constructors.
  #
  # A member whose name is a method every object needs (close, handle, class, send...) gets no
  # method of its own; obj[name], obj[name] = value, perform(name, arg) and child_object(name)
  # reach every member. The classes are made on first use (a reference to a constant of Mvvm that
  # is not defined yet, or Mvvm.classes), loading the library then.
  module Classes
    @lock = Monitor.new
    @built = false

    class << self
      # Makes the classes once; returns {C name => Ruby class}.
      def build!
        return Base::CLASSES if @built

        @lock.synchronize do
          unless @built
            JSON.parse(Native.call_out_string(:mvvm_classes)).each { |description| define(description) }
            Base::CLASSES.freeze
            @built = true
          end
        end
        Base::CLASSES
      end

      # Names no member may take as a method: what every object needs, and Base's own API.
      def reserved
        @reserved ||= begin
          names = Base.instance_methods + Base.private_instance_methods + [:initialize]
          (names - [:display]).to_h { |name| [name, true] }.freeze # Object#display is only a printing helper
        end
      end

      private

      def define(description)
        c_name = description.fetch("class")
        klass = Class.new(Base)
        klass.instance_variable_set(:@c_name, c_name.dup.freeze)
        klass.instance_variable_set(:@swift_name, description["swift_name"].to_s.dup.freeze)
        klass.instance_variable_set(:@description, deep_freeze(description))
        docs = {}
        klass.instance_variable_set(:@docs, docs)
        name_class(klass, description, c_name)
        Base::CLASSES[c_name] = klass

        Array(description["properties"]).each do |p|
          name = p["name"].to_sym
          property = Base::Property.new(name, p["type"].to_sym, p["access"] == "rw" ? :rw : :ro, p["item_class"])
          klass.properties[name] = property
          docs[name] = p["doc"]
          define_property(klass, property)
        end
        Array(description["commands"]).each do |c|
          name = c["name"].to_sym
          klass.commands[name] = c["argument"].to_sym
          docs[name] = c["doc"]
          define_command(klass, name, c["argument"].to_sym)
        end
        Array(description["signals"]).each do |s|
          klass.signals[s["name"].to_sym] = s["type"].to_sym
          docs[s["name"].to_sym] = s["doc"]
        end
        child_classes = description["child_classes"] || {}
        Array(description["children"]).each do |child|
          name = child.to_sym
          klass.children[name] = child_classes[child]
          docs[name] ||= "A child view model (#{child_classes[child] || 'of its own class'})."
          define_method_unless_taken(klass, name) { @children[name] ||= child_object(name) }
        end
        Array(description["constructors"]).each do |c|
          arguments = Array(c["arguments"]).map do |a|
            Base::Argument.new(a["name"].to_sym, a["type"].to_sym, a["c_type"], a["classes"])
          end
          klass.constructors << Base::Constructor.new(c["name"].to_sym, c["doc"], arguments.freeze).freeze
          docs[c["name"].to_sym] = c["doc"]
          arguments.select { |a| a.type == :object }.each do |a|
            define_method_unless_taken(klass, a.name) { argument(a.name) }
          end
        end
        [klass.properties, klass.commands, klass.signals, klass.children, klass.constructors, docs].each(&:freeze)
        klass
      end

      # Sets the class as a constant of Mvvm: its Swift name, and its C name in CamelCase too.
      def name_class(klass, description, c_name)
        names = [description["swift_name"].to_s.split(".").last.to_s,
                 c_name.split("_").map(&:capitalize).join]
        names.uniq.each do |constant|
          next unless constant.match?(/\A[A-Z]\w*\z/) && !Mvvm.const_defined?(constant, false)

          Mvvm.const_set(constant, klass)
        end
      end

      def define_property(klass, property)
        name = property.name
        define_method_unless_taken(klass, name) { get(name) }
        define_method_unless_taken(klass, :"#{name}?") { get(name) } if property.type == :bool
        return unless property.writable?

        if property.type == :double # an Integer is a Float here: mvvm_set_double
          define_method_unless_taken(klass, :"#{name}=") { |value| set(name, value.is_a?(Integer) ? value.to_f : value) }
        else
          define_method_unless_taken(klass, :"#{name}=") { |value| set(name, value) }
        end
      end

      def define_command(klass, name, argument)
        if argument == :none
          define_method_unless_taken(klass, name) { perform(name) }
        else
          what = "#{klass.name}##{name}"
          define_method_unless_taken(klass, name) do |value|
            perform(name, Base.convert_argument(value, argument, what))
          end
        end
      end

      def define_method_unless_taken(klass, name, &body)
        return if reserved[name] || klass.method_defined?(name, false)

        klass.send(:define_method, name, &body)
      end

      def deep_freeze(value)
        case value
        when Hash then value.each_value { |v| deep_freeze(v) }.freeze
        when Array then value.each { |v| deep_freeze(v) }.freeze
        when String then value.freeze
        else value
        end
      end
    end
  end

  # The Ruby classes by C name ({"sign_up_view_model" => Mvvm::SignUpViewModel, ...}), made from
  # the library's description on first use.
  def self.classes
    Classes.build!
  end

  # The Ruby class of the C class `c_name` (KeyError for none).
  def self.class_for(c_name)
    classes.fetch(c_name.to_s)
  end

  # Mvvm::SignUpViewModel and the like are made on first reference, from the library.
  def self.const_missing(name)
    Classes.build!
    const_defined?(name, false) ? const_get(name, false) : super
  end
end

# The module as DESIGN.md spells it: MVVM::SignUpViewModel is Mvvm::SignUpViewModel.
MVVM = Mvvm unless defined?(MVVM)
