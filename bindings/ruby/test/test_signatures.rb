# frozen_string_literal: true

# The RBS signatures: the binding's fixed API (bindings/ruby/sig/mvvm.rbs) and those
# `python3 -m mvvm_gen --rbs` writes for a library's classes (the catalog's, committed in
# examples/catalog/sig; a package's, written here), valid RBS, declaring the binding as it is and
# true to what the calls take and give. RBS runs in processes of its own (test/signatures/check.rb):
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

  ROOT = File.expand_path("../../..", __dir__)
  SIG = File.expand_path("../sig", __dir__)
  CATALOG_SIG = File.join(ROOT, "examples/catalog/sig")
  LIB = File.expand_path("../lib", __dir__)
  CHECK = File.expand_path("signatures/check.rb", __dir__)

  # check.rb over the catalog's library, with the signatures of `sig_dirs`.
  def check(*sig_dirs)
    Open3.capture2e(RbConfig.ruby, "-I", LIB, CHECK, catalog_library_path, "Catalog", *sig_dirs)
  end

  def validate(*sig_dirs)
    Open3.capture2e(RbConfig.ruby, Gem.bin_path("rbs", "rbs"), *sig_dirs.flat_map { |dir| ["-I", dir] }, "validate", "--silent")
  end

  # Runs check.rb over a copy of the signatures with `original` replaced by `changed` in `file`
  # (the binding's mvvm.rbs or the catalog's catalog.rbs).
  def check_changed(file, original, changed)
    Dir.mktmpdir do |dir|
      FileUtils.cp(Dir[File.join(SIG, "*.rbs")] + Dir[File.join(CATALOG_SIG, "*.rbs")], dir)
      path = File.join(dir, file)
      text = File.read(path)
      assert_includes text, original
      File.write(path, text.sub(original, changed))
      check(dir)
    end
  end

  def test_the_signatures_are_valid_rbs
    output, status = validate(SIG)
    assert status.success?, "rbs validate failed (the binding's):\n#{output}"
    output, status = validate(SIG, CATALOG_SIG)
    assert status.success?, "rbs validate failed (the catalog's):\n#{output}"
  end

  def test_the_signatures_declare_the_bindings_and_every_call_fits_them
    output, status = check(SIG, CATALOG_SIG)
    assert status.success?, output
    assert_match(/declared: \d+ classes made at run time, 9 of the fixed API/, output)
    assert_match(/true: every call fit the signatures \(\d+ classes checked at run time\)/, output)
  end

  # A package's own classes: the signatures python3 -m mvvm_gen --rbs writes for them (records,
  # optionals, arrays, bytes, commands with arguments and results, members named like the
  # binding's own methods), in the module named after the library's file (libsample.so: Sample),
  # are valid and true, with the library loaded by its path as that namespace.
  def test_the_signatures_generated_for_a_package_are_valid_and_true
    library = ENV.fetch("MVVM_SAMPLE_LIBRARY", "")
    flunk "MVVM_SAMPLE_LIBRARY names no file: #{library}" unless File.file?(library)
    Dir.mktmpdir do |dir|
      output, status = Open3.capture2e({ "PYTHONPATH" => File.join(ROOT, "tools") }, "python3", "-m", "mvvm_gen",
                                       "--library", library, "--module", "Sample", "--rbs", File.join(dir, "sample.rbs"))
      assert status.success?, output
      assert_match(/^module Sample$/, File.read(File.join(dir, "sample.rbs")))
      output, status = validate(SIG, dir)
      assert status.success?, "rbs validate failed:\n#{output}"
      output, status = Open3.capture2e(RbConfig.ruby, "-I", LIB, CHECK, library, "Sample", SIG, dir)
      assert status.success?, output
      assert_match(/true: every call fit the signatures/, output)
    end
  end

  # The binding's own signatures name no library's class: a library's are its own.
  def test_the_bindings_signatures_are_generic
    assert_equal ["mvvm.rbs"], Dir.children(SIG)
    refute_match(/\b(Catalog|SignUpViewModel|StopWatch|CountDownTimer)\b/, File.read(File.join(SIG, "mvvm.rbs")))
  end

  def test_a_method_made_at_run_time_without_a_signature_is_found
    output, status = check_changed("catalog.rbs", "    def sign_up_tapped: () -> self\n", "")
    refute status.success?, output
    assert_match(/Catalog::SignUpViewModel: made by Ruby without a signature: \[:sign_up_tapped\]/, output)
  end

  def test_a_fixed_method_without_a_signature_is_found
    output, status = check_changed("mvvm.rbs", "    def next_timeout: () -> Integer?\n", "")
    refute status.success?, output
    assert_match(/Mvvm::Loop: public methods without a signature: \[:next_timeout\]/, output)
  end

  def test_a_result_that_does_not_fit_its_signature_is_found_at_run_time
    output, status = check_changed("catalog.rbs", "def is_completion_alert_presented?: () -> bool",
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
