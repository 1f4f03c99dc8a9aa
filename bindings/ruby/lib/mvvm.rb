# frozen_string_literal: true

# Ruby bindings of libmvvm over Fiddle (Ruby's standard libffi binding).
#
#   require "mvvm"
#
#   Mvvm::Loop.virtual do |loop|
#     Mvvm::SignUpViewModel.open(loop) do |vm|
#       vm.subscribe(:is_sign_up_enabled) { |name, value| puts "#{name} = #{value}" }
#       vm.user_id = "abcdef"
#       vm.password = vm.confirm_password = "12345678"
#       vm.agreed = true                 # prints "is_sign_up_enabled = true"
#       vm.sign_up_tapped
#       vm.is_completion_alert_presented? # => true
#     end
#   end
#
# No class is written in Ruby: Mvvm::SignUpViewModel, Mvvm::Greeter and every other class the
# library exports are made at run time from its description (mvvm_classes), named as in Swift;
# MVVM is the same module as Mvvm. See Mvvm::Classes. Values cross in a neutral form
# (Mvvm::Values): the library decides what each member takes.
#
# The library is loaded on first use from MVVM_LIBRARY (libmvvm.so or its folder), else from
# .build/debug or .build/release of the repository holding these files; Mvvm::LibraryError (a
# LoadError) names every path tried. Mvvm.load(path) loads another beside it, as a namespace of
# its classes (Mvvm::Library). A failing call raises the Mvvm::Error subclass of its status
# (Mvvm::ReadOnlyError, Mvvm::CommandError...) with the library's message.
module Mvvm
  # The version of the library MVVM_LIBRARY names, "MAJOR.MINOR.PATCH".
  def self.version
    Native.version
  end

  # The path of the library MVVM_LIBRARY names.
  def self.library_path
    Native.library_path
  end
end

require_relative "mvvm/abi"
require_relative "mvvm/errors"
require_relative "mvvm/names"
require_relative "mvvm/native"
require_relative "mvvm/callbacks"
require_relative "mvvm/handle"
require_relative "mvvm/values"
require_relative "mvvm/loop"
require_relative "mvvm/base"
require_relative "mvvm/list"
require_relative "mvvm/call"
require_relative "mvvm/service"
require_relative "mvvm/library"
require_relative "mvvm/classes"
