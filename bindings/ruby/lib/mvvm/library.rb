# frozen_string_literal: true

require "json"
require "monitor"
require "weakref"

module Mvvm
  # One loaded library as a namespace of its classes and records, as gi.repository gives a
  # typelib's: Mvvm.load(path) returns one. There is no default library: a host names the one it
  # uses, by path (its own package's, or an example's such as the catalog's libcatalog.so).
  #
  #   sample = Mvvm.load("Tests/outside/.build/debug/libsample.so")
  #   sample.loop(:virtual) do |loop|
  #     profile = sample::Profile.new(loop)
  #     profile.address = sample::Address.new(street: "1 Main St", city: "Springfield")
  #   end
  #
  # Its classes (sample::Profile) and records (sample::Address) are constants, named as in
  # Swift; its own calls are methods, which no class name can take: path, version, classes,
  # class_for(c_name), records, record(c_name), loop(kind) (a loop of this library),
  # service { |request| }. Named by a constant (Sample = Mvvm.load(path)), its classes are named
  # under it (Sample::Profile), as the signatures `python3 -m mvvm_gen --rbs` writes declare them.
  # Each object works with its own library only: the library refuses a loop, model or service of
  # another (Mvvm::InvalidHandleError: every handle carries its library's tag).
  class Library < Module
    @lock = Mutex.new
    @loaded = {}

    class << self
      # The namespace of the library at `path`, loaded once per process.
      def load(path)
        native = Native.open(path)
        @lock.synchronize { @loaded[native] ||= new(native) }
      end

      # `library` when it is one; else an ArgumentError saying that `what` (a loop, a service)
      # needs one, since there is no default library to take.
      def required(library, what)
        return library if library.is_a?(Library)

        raise ArgumentError, "#{what} belongs to a library: give library: Mvvm.load(path) " \
                             "(got #{library.inspect})"
      end
    end

    # The library's calls (Mvvm::Native::Library).
    attr_reader :native

    def initialize(native)
      super()
      @native = native
      @build_lock = Monitor.new
      @classes = nil
      @records = {}
      @live = {}
      @remembered = 0
    end

    # The path the library was loaded from.
    def path = @native.path

    # The library's version, "MAJOR.MINOR.PATCH".
    def version = @native.version

    # Every class, by C name ({"profile" => sample::Profile, ...}), made on first use.
    def classes
      build!
    end

    # The class of the C class `c_name` (KeyError for none).
    def class_for(c_name)
      classes.fetch(c_name.to_s)
    end

    # Every record the classes use, by C name ({"address" => sample::Address, ...}).
    def records
      build!
      @records
    end

    # The record class of the C record `name`.
    def record(name)
      records.fetch(name.to_s)
    end

    # A loop of this library (see Mvvm::Loop); with a block, closed when it ends.
    def loop(kind = :virtual, &block)
      Loop.open(kind, library: self, &block)
    end

    # A host service of this library (see Mvvm::Service).
    def service(callable = nil, name: "service", &block)
      Service.new(callable, name: name, library: self, &block)
    end

    def const_missing(name)
      build!
      const_defined?(name, false) ? const_get(name, false) : super
    end

    def inspect
      "#<Mvvm::Library #{path}>"
    end
    alias to_s inspect

    # --- for the bindings themselves ------------------------------------------------------------

    # A Ruby object for a handle the library gave (a child, a list's item), of its class.
    def wrap(handle, loop, parent: nil)
      c_name = Native.read_string(@native.call_out(:mvvm_class_name, handle))
      klass = classes.fetch(c_name) { Base }
      object = klass.allocate
      object.send(:init_handle, handle, loop, self, parent)
      object
    end

    # Remembers `object` as the one of `handle`, weakly (a host service's request names its view
    # model by handle); forgets the collected ones now and then.
    def remember(handle, object)
      @live.delete_if { |_, ref| !ref.weakref_alive? } if ((@remembered += 1) % 1024).zero?
      @live[handle] = WeakRef.new(object)
    end

    def forget(handle)
      @live.delete(handle)
    end

    # The Ruby object made for `handle`, while it lives.
    def live_object(handle)
      ref = @live[handle]
      ref&.weakref_alive? ? ref.__getobj__ : nil
    rescue WeakRef::RefError
      nil
    end

    private

    def build!
      return @classes if @classes

      @build_lock.synchronize do
        unless @classes
          descriptions = JSON.parse(@native.call_out_string(:mvvm_classes))
          classes = {}
          descriptions.each { |description| classes[description.fetch("class")] = Classes.define(self, description) }
          descriptions.each do |description|
            (description["records"] || {}).each_value { |record| @records[record["name"]] ||= Record.define(self, record) }
          end
          @records.freeze
          @classes = classes.freeze
        end
      end
      @classes
    end

    public

    # Sets `value` as the constant `name` (its display name, from the description) of the
    # namespace; a name the namespace has already (a record of a class's name) takes a trailing
    # underscore, as the generator's signatures name it (tools/mvvm_gen/ruby.py).
    def name_constant(value, name)
      constant = name
      constant += "_" while const_defined?(constant, false)
      const_set(constant, value)
    end
  end

  # A record of the library (a Swift struct it exports) as a Struct of its fields, made from the
  # library's description: keyword_init, one member per field (named by Mvvm::Names: a field
  # `class` is the member class_), frozen when read from the library.
  #
  #   sample::Address.new(street: "1 Main St", city: "Springfield")  # zip_code: nil
  #   profile.address.street
  #
  # A record is given to the library by its fields' names (a Hash of them does as well); a field
  # left out is null, which the library takes for an optional field only.
  module Record
    class << self
      def define(library, description)
        fields = description.fetch("fields").map { |f| f.fetch("name").freeze }.freeze
        klass = Struct.new(*fields.map { |f| Names.ruby(f).to_sym }, keyword_init: true)
        klass.extend(ClassMethods)
        klass.include(Equality)
        klass.instance_variable_set(:@library, library)
        klass.instance_variable_set(:@record_name, description.fetch("name").dup.freeze)
        klass.instance_variable_set(:@description, Classes.deep_freeze(description))
        klass.instance_variable_set(:@field_names, fields)
        library.name_constant(klass, description.fetch("display"))
        klass
      end
    end

    # A record built by the host holds each field of Foundation's kinds as it is read back (a
    # date's seconds a Time, a decimal's Integer its text, a UUID's text in upper case:
    # Values.adopt), and compares by value (a decimal's text by its number: "1.50" == "1.5"), so
    # it equals itself read back.
    module Equality
      def initialize(**fields)
        types = self.class.description["fields"]
        adopted = fields.to_h do |name, value|
          index = self.class.members.index(name)
          [name, index ? Values.adopt(value, types[index]) : value]
        end
        super(**adopted)
      end

      def ==(other)
        other.class == self.class && comparable == other.comparable
      end
      alias eql? ==

      def hash = [self.class, comparable].hash

      protected

      def comparable
        types = self.class.description["fields"]
        to_a.each_with_index.map { |value, index| Values.comparable(value, types[index]) }
      end
    end

    module ClassMethods
      # The library it belongs to.
      attr_reader :library
      # Its C name ("address"), its description, its fields' C names in order.
      attr_reader :record_name, :description, :field_names

      def doc = @description["doc"]

      # A frozen record of the field values in order (a date field a Time: Values.render).
      def from_fields(values)
        types = @description["fields"]
        new(**members.zip(values.each_with_index.map { |value, i| Values.render(value, types[i]) }).to_h).freeze
      end
    end
  end

  # The namespace of the library at `path` (a file: your package's library, or an example's),
  # loaded once per process, beside any other; see Mvvm::Library.
  def self.load(path)
    Library.load(path)
  end
end
