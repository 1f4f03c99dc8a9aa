# frozen_string_literal: true

require_relative "helper"
require "json"
require "open3"
require "rbconfig"

# Ruby's naming rule is written once, in the generator's tools/mvvm_gen/naming-ruby.json: the
# binding (Mvvm::Names) and the signatures (python3 -m mvvm_gen --rbs) both read it, so they name
# alike; these check that both read that file and that what it lists is what Ruby keeps.
class TestNames < Minitest::Test
  ROOT = File.expand_path("../../..", __dir__)
  RULE_FILE = File.join(ROOT, "tools/mvvm_gen/naming-ruby.json")
  RULE = JSON.parse(File.read(RULE_FILE))

  def listed = RULE.fetch("keywords") + RULE.fetch("object_methods") + RULE.fetch("hooks")

  def test_the_binding_and_the_generator_read_the_one_rule
    assert_equal RULE_FILE, Mvvm::Names::RULE_FILE
    assert_equal listed.uniq.sort, Mvvm::Names::RESERVED.keys.sort
    program = "import json; from mvvm_gen import ruby; print(json.dumps(sorted(ruby.ruby_reserved()[0])))"
    output, status = Open3.capture2e({ "PYTHONPATH" => File.join(ROOT, "tools") }, "python3", "-c", program)
    assert status.success?, output
    assert_equal Mvvm::Names::RESERVED.keys.sort, JSON.parse(output), "the generator names by the same file"
  end

  # The public methods of a plain Object, in a Ruby without rubygems (which adds its own), but for
  # display: a printing helper, left to a member of that name.
  def test_the_object_methods_are_those_of_a_plain_object
    output, status = Open3.capture2e(RbConfig.ruby, "--disable-gems", "-e", "puts Object.public_instance_methods")
    assert status.success?, output
    assert_equal (output.split - ["display"]).sort, RULE.fetch("object_methods").sort
    refute Mvvm::Names.reserved?(:display)
  end

  # Each keyword is one Ruby will not take as a name (__END__ is one only alone on its line), and
  # each hook is a method Ruby calls on an object by itself.
  def test_the_keywords_and_hooks_are_rubys
    (RULE.fetch("keywords") - ["__END__"]).each do |keyword|
      assert_raises(SyntaxError, keyword) { RubyVM::InstructionSequence.compile("#{keyword} = 1") }
    end
    RubyVM::InstructionSequence.compile("name = 1") # a name that is no keyword compiles
    RULE.fetch("hooks").each do |hook|
      assert BasicObject.private_method_defined?(hook) || Object.private_method_defined?(hook), hook
    end
  end

  def test_a_reserved_name_takes_a_trailing_underscore
    assert_equal %w[class_ send_ object_id_ then_ initialize_ close loop display],
                 %w[class send object_id then initialize close loop display].map { |name| Mvvm::Names.ruby(name) }
    assert_equal %w[class send close_ loop], %w[class_ send_ close_ loop].map { |name| Mvvm::Names.library(name) }
  end
end
