# frozen_string_literal: true

# The description the Ruby binding reads (mvvm_classes, mvvm_describe) against its schema,
# docs/description.schema.json, as the Python suite checks Python's (tests/test_description.py):
# the catalog's, Tests/outside's libsample.so's (when MVVM_SAMPLE_LIBRARY names it) and an
# object's, whose "constructor" the binding reads to know which argument a model was. The schema
# is read by a validator of the few JSON Schema keywords it uses (no gem needed).
require_relative "helper"
require "json"

module SchemaCheck
  SCHEMA = JSON.parse(File.read(File.expand_path("../../../docs/description.schema.json", __dir__)))
  TYPES = {
    "object" => Hash, "array" => Array, "string" => String, "integer" => Integer, "boolean" => [true, false],
    "null" => nil, "number" => Numeric
  }.freeze

  module_function

  # Where `value` breaks `schema` (JSON Pointer-ish paths), none when it keeps it.
  def errors(value, schema = SCHEMA, path = "")
    return [] if schema == true
    return ["#{path}: nothing is allowed here"] if schema == false

    found = []
    schema.each do |keyword, rule|
      case keyword
      when "$ref" then found += errors(value, resolve(rule), path)
      when "type" then found << "#{path}: not #{rule}" unless Array(rule).any? { |t| type?(value, t) }
      when "enum" then found << "#{path}: #{value.inspect} is none of #{rule}" unless rule.include?(value)
      when "const" then found << "#{path}: #{value.inspect} is not #{rule.inspect}" unless value == rule
      when "pattern" then found << "#{path}: #{value.inspect} does not match #{rule}" if value.is_a?(String) && value !~ Regexp.new(rule)
      when "required"
        rule.each { |key| found << "#{path}: no #{key}" if value.is_a?(Hash) && !value.key?(key) }
      when "properties"
        rule.each { |key, sub| found += errors(value[key], sub, "#{path}/#{key}") if value.is_a?(Hash) && value.key?(key) }
      when "additionalProperties"
        if value.is_a?(Hash)
          known = (schema["properties"] || {}).keys
          value.each { |key, item| found += errors(item, rule, "#{path}/#{key}") unless known.include?(key) }
        end
      when "items"
        value.each_with_index { |item, i| found += errors(item, rule, "#{path}/#{i}") } if value.is_a?(Array)
      when "allOf" then rule.each { |sub| found += errors(value, sub, path) }
      when "oneOf"
        kept = rule.count { |sub| errors(value, sub, path).empty? }
        found << "#{path}: keeps #{kept} of oneOf's #{rule.size}, not one" unless kept == 1
      when "not" then found << "#{path}: matches what is not allowed" if errors(value, rule, path).empty?
      when "if"
        branch = errors(value, rule, path).empty? ? schema["then"] : schema["else"]
        found += errors(value, branch, path) unless branch.nil?
      when "then", "else", "$schema", "$id", "$defs", "title", "description", "$comment", "default", "examples" then nil
      else raise ArgumentError, "the schema uses #{keyword}, which this check does not know: teach it"
      end
    end
    found
  end

  def type?(value, name)
    want = TYPES.fetch(name)
    return want.include?(value) if want.is_a?(Array)
    return value.nil? if want.nil?

    value.is_a?(want)
  end

  def resolve(ref)
    raise ArgumentError, "only local references: #{ref}" unless ref.start_with?("#/")

    ref.delete_prefix("#/").split("/").reduce(SCHEMA) { |node, key| node.fetch(key) }
  end
end

class TestDescription < MvvmTest
  def described(library)
    JSON.parse(library.native.call_out_string(:mvvm_classes))
  end

  def test_the_catalogs_classes_follow_the_schema
    classes = described(Catalog)
    refute_empty classes
    assert_empty SchemaCheck.errors(classes)
  end

  def test_the_sample_librarys_classes_follow_the_schema
    library = sample_library
    skip "MVVM_SAMPLE_LIBRARY is not set" unless library
    assert_empty SchemaCheck.errors(described(library))
  end

  def test_the_schema_check_is_no_formality
    counter = described(Catalog).find { |c| c["class"] == "counter" }
    refute_empty SchemaCheck.errors([counter.merge("display" => "counter_x")])
    refute_empty SchemaCheck.errors([counter.except("display")])
    no_c_type = counter.merge("properties" => counter["properties"].map { |p| p.except("c_type") })
    refute_empty SchemaCheck.errors([no_c_type])
  end

  def test_an_objects_description_follows_the_schema_and_names_its_constructor
    timer = Catalog::CountDownTimer.new(@loop, 5)
    screen = Catalog::TimerViewModel.new(@loop, timer)
    described = Mvvm.describe(screen)
    assert_empty SchemaCheck.errors(described)
    assert_equal "new", described["constructor"]
    assert_nil Mvvm.describe(screen.display)["constructor"], "a child is made by its parent"
    assert_same timer, screen.timer, "the model read back by the constructor mvvm_describe names"
  end

  def test_classes_are_named_by_their_display_names
    described(Catalog).each do |description|
      assert_same Catalog.class_for(description["class"]), Catalog.const_get(description["display"], false)
    end
  end
end
