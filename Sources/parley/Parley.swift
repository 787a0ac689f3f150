import ArgumentParser

@main
struct Parley: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Parley")
}
