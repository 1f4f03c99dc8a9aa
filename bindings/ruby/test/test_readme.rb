# frozen_string_literal: true

require_relative "helper"
require "open3"
require "rbconfig"

# The Ruby examples of bindings/ruby/README.md (the Ruby documentation) run as written (the sample
# library's path aside), each in a Ruby of its own.
class TestReadme < SampleTest
  ROOT = File.expand_path("../../..", __dir__)
  LIB = File.expand_path("../lib", __dir__)
  SAMPLE_PATH = "Tests/outside/.build/debug/libsample.so"

  def ruby_blocks(readme)
    File.read(File.join(ROOT, readme)).scan(/^```ruby\n(.*?)^```/m).flatten
  end

  def run_example(code)
    code = code.gsub("\"#{SAMPLE_PATH}\"", ENV.fetch("MVVM_SAMPLE_LIBRARY").inspect)
    Open3.capture2e(RbConfig.ruby, "-w", "-I", LIB, "-e", code, chdir: ROOT)
  end

  def test_the_ruby_readme_example_runs
    blocks = ruby_blocks("bindings/ruby/README.md")
    refute_empty blocks
    blocks.each do |code|
      output, status = run_example(code)
      assert status.success?, "#{code}\n#{output}"
      assert_equal "greeting = Hello, Bob!\nfound ruby\n", output
    end
  end
end
