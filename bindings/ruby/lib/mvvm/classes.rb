# frozen_string_literal: true

module Mvvm
  # The Ruby classes of a library's classes, made at run time from mvvm_classes, as PyGObject
  # makes its classes from a typelib: a class registered in Swift is usable from Ruby with no
  # Ruby written for it. Each is a subclass of Mvvm::Base, a constant of its library's namespace
  # named by the display name the description gives (sample::Profile for the C class profile; a
  # trailing underscore when the namespace has that constant already), with a method per member,
  # named as Mvvm::Names says (the member's own name; a trailing underscore for a Ruby keyword
  # or core method: class_, send_):
  #
  # - a reader per property (and `name?` for booleans), a writer per binding (read-write
  #   property); a list property reads as an Mvvm::List of live items;
  # - a method per command, taking its arguments by position or by keyword, giving its result
  #   (self when it returns nothing); an async command's starts it and returns an Mvvm::Call,
  #   calling its block (if given) with (result, nil) or (nil, error) once the call ends;
  # - a reader per child, giving the same object each time, closed with its parent;
  # - a reader per model argument of its constructors (a constructor taking a model `timer`
  #   gives #timer), unless a member has that name;
  # - class methods library, c_name, swift_name, doc (the class's, or doc(:member)),
  #   description, properties, commands, signals, children, constructors.
  #
  # A member wins over the methods Mvvm::Base gives every object (a command `close` is
  # obj.close); those stay reachable as module functions (Mvvm.close(obj)...), which no member
  # can take. Nothing here checks a value: the library takes or refuses each.
  module Classes
    class << self
      def define(library, description)
        c_name = description.fetch("class")
        klass = Class.new(Base)
        klass.instance_variable_set(:@library, library)
        klass.instance_variable_set(:@c_name, c_name.dup.freeze)
        klass.instance_variable_set(:@swift_name, description["swift_name"].to_s.dup.freeze)
        klass.instance_variable_set(:@description, deep_freeze(description))
        docs = {}
        klass.instance_variable_set(:@docs, docs)
        library.name_constant(klass, description.fetch("display"))

        Array(description["properties"]).each do |p|
          property = Base::Property.new(p["name"].to_sym, p["type"].to_sym, p["access"] == "rw" ? :rw : :ro,
                                        p["item_class"], p["optional"] == true, Native.c_string(p["name"]).freeze,
                                        p["c_type"])
          klass.properties[property.name] = property
          klass.rendered_types[property.name] = p if Values.renders?(p)
          docs[property.name] = p["doc"]
          define_property(klass, property)
        end
        Array(description["commands"]).each do |c|
          command = Base::Command.new(c["name"].to_sym, Array(c["arguments"]).map { |a| a["name"].to_sym }.freeze,
                                      (c.dig("result", "type") || "none").to_sym, c["throws"] == true, c["async"] == true)
          klass.commands[command.name] = command
          klass.rendered_types[command.name] = c["result"] if c["result"] && Values.renders?(c["result"])
          docs[command.name] = c["doc"]
          define_command(klass, command)
        end
        Array(description["signals"]).each do |s|
          klass.signals[s["name"].to_sym] = s["type"].to_sym
          klass.rendered_types[s["name"].to_sym] = s if Values.renders?(s)
          docs[s["name"].to_sym] = s["doc"]
        end
        child_classes = description["child_classes"] || {}
        Array(description["children"]).each do |child|
          name = child.to_sym
          klass.children[name] = child_classes[child]
          docs[name] ||= "A child view model (#{child_classes[child] || 'of its own class'})."
          define_member(klass, Names.ruby(name)) { @children[name] ||= Mvvm.child(self, name) }
        end
        Array(description["constructors"]).each do |c|
          arguments = Array(c["arguments"]).map do |a|
            Base::Argument.new(a["name"].to_sym, a["type"].to_sym, a["c_type"], a["classes"])
          end
          klass.constructors << Base::Constructor.new(c["name"].to_sym, c["doc"], arguments.freeze).freeze
          docs[c["name"].to_sym] = c["doc"]
        end
        # Model arguments last: a member of the same name wins.
        klass.constructors.flat_map(&:arguments).select { |a| a.type == :object }.each do |a|
          define_member(klass, Names.ruby(a.name)) { Mvvm.argument(self, a.name) }
        end
        [klass.properties, klass.commands, klass.signals, klass.children, klass.constructors, klass.rendered_types,
         docs].each(&:freeze)
        klass
      end

      def deep_freeze(value)
        case value
        when Hash then value.each_value { |v| deep_freeze(v) }.freeze
        when Array then value.each { |v| deep_freeze(v) }.freeze
        when String then value.freeze
        else value
        end
      end

      private

      def define_property(klass, property)
        name = Names.ruby(property.name)
        define_member(klass, name) { Mvvm.get(self, property.name) }
        define_member(klass, "#{name}?") { Mvvm.get(self, property.name) } if property.type == :bool
        define_member(klass, "#{name}=") { |value| Mvvm.set(self, property.name, value) } if property.writable?
      end

      def define_command(klass, command)
        name = command.name
        if command.async
          # mvvm_call_async: an Mvvm::Call, the block (if any) called once when it ends.
          define_member(klass, Names.ruby(name)) do |*args, **kwargs, &block|
            Mvvm.call_async(self, name, *args, **kwargs, &block)
          end
        elsif command.result == :none
          define_member(klass, Names.ruby(name)) do |*args, **kwargs|
            Mvvm.call(self, name, *args, **kwargs)
            self
          end
        else
          define_member(klass, Names.ruby(name)) { |*args, **kwargs| Mvvm.call(self, name, *args, **kwargs) }
        end
      end

      # Defines the method `name` unless Ruby keeps it (a `?` form such as frozen?) or another
      # member of the class took it first.
      def define_member(klass, name, &body)
        name = name.to_sym
        return if Names.reserved?(name) || klass.method_defined?(name, false)

        klass.send(:define_method, name, &body)
      end
    end
  end
end
