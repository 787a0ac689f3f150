public import Foundation

extension ScriptedSkill {
    /// The bundled demo: the pizza order of the Oracle Digital Assistant SDK examples, defined in the file
    /// format (the resource `Resources/pizza-demo.json` of ParleySkills, see ``pizzaDemoURL``).
    ///
    /// A greeting that uses the profile's name, a text with postback actions, a horizontal carousel of pizzas
    /// with order postbacks, crust and size questions (buttons or typed words), a location request, a
    /// confirmation with a call action, `feedback` for an edit form (an auto-submitted rating that replaces the form,
    /// then a streamed thank-you), `agent` to talk to a live agent, and `bye` or `closeSession` to end; in English
    /// and French (the profile's `languageTag`).
    ///
    /// A function that throws rather than a static property: the definition is a file of the package's resource
    /// bundle, and a file can be missing or damaged in an installation. It is read and checked once, on the first
    /// call; that outcome, skill or error, is kept and every later call returns it. The server calls it where it
    /// loads a channel's skill, so a broken demo stops the server at start with the file's path in the error.
    /// - Throws: ``ParleyError``: ``ParleyError/Code/skillUnreadable`` when the resource is missing or cannot be
    ///   read, otherwise what ``init(json:)`` throws; the message names the resource's path.
    public static func pizzaDemo() throws(ParleyError) -> ScriptedSkill {
        try PizzaDemoResource.loaded.get()
    }

    /// The definition of ``pizzaDemo()``, as a skill file; a starting point for your own.
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/skillUnreadable`` naming the resource when it is
    ///   missing or cannot be read.
    public static func pizzaDemoSource() throws(ParleyError) -> String {
        let url = try pizzaDemoURL()
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ParleyError(
                .skillUnreadable, "cannot read the bundled pizza demo \(url.path): \(error.localizedDescription)",
                underlying: error)
        }
    }

    /// Where the definition of ``pizzaDemo()`` is: `pizza-demo.json` in ParleySkills' resource bundle.
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/skillUnreadable`` when the bundle has no such file.
    public static func pizzaDemoURL() throws(ParleyError) -> URL {
        guard let url = Bundle.module.url(forResource: PizzaDemoResource.name, withExtension: "json") else {
            throw ParleyError(
                .skillUnreadable,
                "the bundled pizza demo \(PizzaDemoResource.name).json is missing from ParleySkills' resources "
                    + "(\(Bundle.module.bundlePath))")
        }
        return url
    }
}

/// The pizza demo, read from the resource bundle once.
private enum PizzaDemoResource {
    /// The resource's name without its `.json` extension.
    static let name = "pizza-demo"

    /// The skill, or why it could not be loaded: an error that names the resource's path.
    static let loaded = Result { () throws(ParleyError) -> ScriptedSkill in try load() }

    private static func load() throws(ParleyError) -> ScriptedSkill {
        let url = try ScriptedSkill.pizzaDemoURL()
        do {
            return try ScriptedSkill(contentsOf: url)
        } catch  where error.code == .skillUnreadable {
            throw error
        } catch {
            throw ParleyError(
                error.code, "the bundled pizza demo \(url.path) is not a valid skill: \(error.message)",
                path: error.path, underlying: error)
        }
    }
}
