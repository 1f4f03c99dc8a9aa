# frozen_string_literal: true

# The RBS signatures (bindings/ruby/sig): valid RBS, declaring the bindings as they are and true
# to what the calls take and give. RBS runs in processes of its own (test/signatures/check.rb):
# its parser, a C extension, does not survive the GC.compact other tests run in this one.
require_relative "helper"
require "fileutils"
require "open3"
require "tmpdir"

class SignaturesTest < Minitest::Test
  # The test of a package's signatures needs Tests/outside's library (MVVM_SAMPLE_LIBRARY).
  def self.runnable_methods
    methods = super
    ENV.fetch("MVVM_SAMPLE_LIBRARY", "").empty? ? methods - ["test_the_signatures_generated_for_a_package_are_valid_and_true"] : methods
  end

  SIG = File.expand_path("../sig", __dir__)
  LIB = File.expand_path("../lib", __dir__)
  CHECK = File.expand_path("signatures/check.rb", __dir__)

  def check(sig_dir)
    Open3.capture2e(RbConfig.ruby, "-I", LIB, CHECK, sig_dir)
  end

  # Runs check.rb over a copy of the signatures with `original` replaced by `changed` in `file`.
  def check_changed(file, original, changed)
    Dir.mktmpdir do |dir|
      FileUtils.cp(Dir[File.join(SIG, "*.rbs")], dir)
      path = File.join(dir, file)
      text = File.read(path)
      assert_includes text, original
      File.write(path, text.sub(original, changed))
      check(dir)
    end
  end

  def test_the_signatures_are_valid_rbs
    output, status = Open3.capture2e(RbConfig.ruby, Gem.bin_path("rbs", "rbs"), "-I", SIG, "validate", "--silent")
    assert status.success?, "rbs validate failed:\n#{output}"
  end

  def test_the_signatures_declare_the_bindings_and_every_call_fits_them
    output, status = check(SIG)
    assert status.success?, output
    assert_match(/declared: \d+ classes made at run time, 9 of the fixed API/, output)
    assert_match(/true: every call fit the signatures \(\d+ classes checked at run time\)/, output)
  end

  # A package's own classes: the signatures python3 -m mvvm_gen --rbs writes for them (records,
  # optionals, arrays, bytes, commands with arguments and results, members named like the
  # bindings' own methods) are valid and true, with the library MVVM_LIBRARY naming theirs.
  def test_the_signatures_generated_for_a_package_are_valid_and_true
    library = ENV.fetch("MVVM_SAMPLE_LIBRARY", "")
    require_sample(library)
    Dir.mktmpdir do |dir|
      FileUtils.cp(Dir[File.join(SIG, "*.rbs")], dir)
      generator = File.expand_path("../../gen", __dir__)
      output, status = Open3.capture2e({ "PYTHONPATH" => generator }, "python3", "-m", "mvvm_gen", "--library", library,
                                       "--module", "Sample", "--rbs", File.join(dir, "sample.rbs"))
      assert status.success?, output
      output, status = Open3.capture2e(RbConfig.ruby, Gem.bin_path("rbs", "rbs"), "-I", dir, "validate", "--silent")
      assert status.success?, "rbs validate failed:\n#{output}"
      output, status = Open3.capture2e({ "MVVM_LIBRARY" => library }, RbConfig.ruby, "-I", LIB, CHECK, dir)
      assert status.success?, output
      assert_match(/true: every call fit the signatures/, output)
    end
  end

  # The generator names the signatures' methods and constants by data (tools/mvvm_gen/
  # naming-ruby.json), running no Ruby: the data is the bindings' rule, exactly.
  def test_the_generators_ruby_naming_data_is_the_bindings_rule
    require "json"
    data = JSON.parse(File.read(File.expand_path("../../gen/mvvm_gen/naming-ruby.json", __dir__)))
    assert_equal Mvvm::Names::RESERVED.keys.sort, data.fetch("reserved").sort,
                 "naming-ruby.json's reserved names differ from Mvvm::Names::RESERVED: update the file"
    # The module's own constants, before a library adds its classes (as in a fresh process).
    output, status = Open3.capture2e(RbConfig.ruby, "-I", LIB, "-rmvvm", "-e", "puts Mvvm.constants")
    assert status.success?, output
    assert_equal output.split.sort, data.fetch("constants").sort,
                 "naming-ruby.json's constants differ from the Mvvm module's: update the file"
  end

  def require_sample(library)
    flunk "MVVM_SAMPLE_LIBRARY names no file: #{library}" unless File.file?(library)
  end

  def test_a_method_made_at_run_time_without_a_signature_is_found
    output, status = check_changed("mvvm_classes.rbs", "    def sign_up_tapped: () -> self\n", "")
    refute status.success?, output
    assert_match(/Mvvm::SignUpViewModel: made by Ruby without a signature: \[:sign_up_tapped\]/, output)
  end

  def test_a_fixed_method_without_a_signature_is_found
    output, status = check_changed("mvvm.rbs", "    def next_timeout: () -> Integer?\n", "")
    refute status.success?, output
    assert_match(/Mvvm::Loop: public methods without a signature: \[:next_timeout\]/, output)
  end

  def test_a_result_that_does_not_fit_its_signature_is_found_at_run_time
    output, status = check_changed("mvvm_classes.rbs", "def is_completion_alert_presented?: () -> bool",
                                   "def is_completion_alert_presented?: () -> Integer")
    refute status.success?, output
    assert_match(/is_completion_alert_presented\?\] ReturnTypeError: expected `::Integer`/, output)
  end

  def test_an_argument_that_does_not_fit_its_signature_is_found_at_run_time
    output, status = check_changed("mvvm.rbs", "def advance: (Integer ms) -> self", "def advance: (String ms) -> self")
    refute status.success?, output
    assert_match(/Mvvm::Loop#advance\] ArgumentTypeError/, output)
  end
end
