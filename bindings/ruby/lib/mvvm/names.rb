# frozen_string_literal: true

module Mvvm
  # How a member, argument or record field of the library is named in Ruby: by its own name,
  # unless that name is a Ruby keyword or a method Ruby itself needs on every object; then with a
  # trailing underscore (a property `class` is `obj.class_`, a command `send` is `obj.send_(...)`,
  # an argument `class` is the keyword `class_:`). The same rule as the other bindings': keywords
  # and core methods of the language take a trailing underscore.
  #
  # Reserved are the keywords, every public method of a plain Object (class, send, object_id,
  # hash, inspect, freeze, tap, then...) except Kernel#display (a printing helper: the catalog's
  # TimerViewModel#display is its child), and the private methods Ruby calls itself (initialize,
  # method_missing...). Private Kernel helpers (loop, puts, format...) are not: a member `loop`
  # is `obj.loop`.
  #
  # The list is fixed here, not read from Object at run time, so that it does not change with
  # what else a program requires (json, pp, minitest add methods to Object). python3 -m mvvm_gen
  # --rbs asks this module for it, so that the signatures name the methods as Ruby does.
  module Names
    KEYWORDS = %w[
      BEGIN END __ENCODING__ __END__ __FILE__ __LINE__ alias and begin break case class def defined?
      do else elsif end ensure false for if in module next nil not or redo rescue retry return self
      super then true undef unless until when while yield
    ].freeze

    # Object.public_instance_methods of Ruby 3.1 without rubygems, display left out.
    OBJECT_METHODS = %w[
      ! != !~ <=> == === =~ __id__ __send__ class clone define_singleton_method dup enum_for eql?
      equal? extend freeze frozen? hash inspect instance_eval instance_exec instance_of?
      instance_variable_defined? instance_variable_get instance_variable_set instance_variables
      is_a? itself kind_of? method methods nil? object_id private_methods protected_methods
      public_method public_methods public_send remove_instance_variable respond_to? send
      singleton_class singleton_method singleton_methods taint tainted? tap then to_enum to_s trust
      untaint untrust untrusted? yield_self
    ].freeze

    # What Ruby calls on an object by itself.
    HOOKS = %w[
      initialize initialize_copy initialize_clone initialize_dup method_missing respond_to_missing?
      singleton_method_added singleton_method_removed singleton_method_undefined
    ].freeze

    RESERVED = (KEYWORDS + OBJECT_METHODS + HOOKS).to_h { |name| [name, true] }.freeze

    class << self
      # True for a name Ruby keeps for itself.
      def reserved?(name)
        RESERVED.key?(name.to_s)
      end

      # The Ruby name of the library's `name`: "class" -> "class_", "close" -> "close".
      def ruby(name)
        name = name.to_s
        reserved?(name) ? "#{name}_" : name
      end

      # The library's name of a Ruby name: "class_" -> "class" (only for a reserved name),
      # anything else as it is.
      def library(name)
        name = name.to_s
        name.end_with?("_") && reserved?(name.delete_suffix("_")) ? name.delete_suffix("_") : name
      end
    end
  end
end
