# frozen_string_literal: true

require "json"

module Mvvm
  # How a member, argument or record field of the library is named in Ruby: by its own name,
  # unless that name is a Ruby keyword or a method Ruby itself needs on every object; then with a
  # trailing underscore (a property `class` is `obj.class_`, a command `send` is `obj.send_(...)`,
  # an argument `class` is the keyword `class_:`). The same rule as the other bindings': keywords
  # and core methods of the language take a trailing underscore.
  #
  # The rule is written once, as data, in the generator's tools/mvvm_gen/naming-ruby.json (its
  # "about" says what each list holds), which `python3 -m mvvm_gen --rbs` names the signatures by
  # too, running no Ruby: so the methods made here and the methods the signatures declare are
  # named alike. The lists are fixed there, not read from Object at run time, so that they do not
  # change with what else a program requires (json, pp, minitest add methods to Object).
  module Names
    # The rule's one file, in the generator's folder of this repository.
    RULE_FILE = File.expand_path("../../../../tools/mvvm_gen/naming-ruby.json", __dir__)

    rule = begin
      JSON.parse(File.read(RULE_FILE))
    rescue Errno::ENOENT
      raise LoadError, "mvvm: no naming rule at #{RULE_FILE}: the Ruby binding reads the generator's " \
                       "tools/mvvm_gen/naming-ruby.json of its repository"
    end

    KEYWORDS = rule.fetch("keywords").map(&:freeze).freeze
    # The public methods of a plain Object (Ruby 3.1, without rubygems), display left out.
    OBJECT_METHODS = rule.fetch("object_methods").map(&:freeze).freeze
    # What Ruby calls on an object by itself.
    HOOKS = rule.fetch("hooks").map(&:freeze).freeze

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
