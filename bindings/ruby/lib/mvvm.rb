# frozen_string_literal: true

# Ruby bindings of libmvvm over Fiddle (Ruby's standard libffi binding).
#
#   require "mvvm"
#
#   Sample = Mvvm.load("Tests/outside/.build/debug/libsample.so")  # your package's library
#   Sample.loop(:virtual) do |loop|                                # closed when the block ends
#     greeter = Sample::Greeter.new(loop, "Ann")
#     greeter.subscribe(:greeting) { |name, value| puts "#{name} = #{value}" }
#     greeter.name = "Bob"                                         # prints "greeting = Hello, Bob!"
#   end
#
# There is no default library: a host loads the library it uses by path (Mvvm.load), and gets
# a namespace of its classes and records (Mvvm::Library). No class is written in Ruby: each is
# made at run time from the library's description (mvvm_classes), named as in Swift; see
# Mvvm::Classes. Values cross in a neutral form (Mvvm::Values): the library decides what each
# member takes. A failing call raises the Mvvm::Error subclass of its status
# (Mvvm::ReadOnlyError, Mvvm::CommandError...) with the library's message; a library that
# cannot be loaded raises Mvvm::LibraryError (a LoadError) saying why.

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
