extension ChatClient {
    /// The share menu in use (Oracle's `shareMenuItems()`): `shareMenuConfiguration` as configured, or as
    /// ``setShareMenuItems(_:)`` last changed it. ``configuration`` reports the same value.
    public func shareMenuItems() -> ShareMenuConfiguration {
        configuration.shareMenuConfiguration
    }

    /// Changes the share menu at run time (Oracle's `shareMenuItems(shareMenuItems:)`): the next
    /// ``sendAttachment(_:fileName:mimeType:progress:)`` checks its file against `shareMenu`, and a screen that reads
    /// ``configuration`` offers its items. Uploads already under way go on. Empty lists of both kinds allow every file,
    /// as Oracle shows every item for an empty menu.
    public func setShareMenuItems(_ shareMenu: ShareMenuConfiguration) {
        configuration.shareMenuConfiguration = shareMenu
    }

    /// Changes the share menu at run time from Oracle's pair of lists, `([ShareMenuItem], [ShareMenuCustomItem])`.
    public func setShareMenuItems(_ items: [ShareMenuItem], customItems: [ShareMenuCustomItem] = []) {
        setShareMenuItems(ShareMenuConfiguration(items: items, customItems: customItems))
    }
}
