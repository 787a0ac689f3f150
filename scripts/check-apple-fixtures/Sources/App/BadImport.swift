import Foundation
import Glibc

func pid() -> Int32 { getpid() }
