extension MessagePayload {
    /// The members of a `table` payload.
    public struct Table: PayloadContent {
        /// The column headings (`headings`).
        public var headings: [TableHeading]
        /// The rows; `rows[i].fields[j]` sits under `headings[j]` (`rows`).
        public var rows: [TableRow]
        /// Where this page sits in a longer table (`paginationInfo`).
        public var paginationInfo: PaginationInfo?
        /// A title above the table (`tableTitle`, web SDK).
        public var tableTitle: String?
        /// Creates table content.
        public init(
            headings: [TableHeading], rows: [TableRow], paginationInfo: PaginationInfo? = nil, tableTitle: String? = nil
        ) {
            self.headings = headings
            self.rows = rows
            self.paginationInfo = paginationInfo
            self.tableTitle = tableTitle
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            headings = try reader.required("headings")
            rows = try reader.required("rows")
            paginationInfo = try reader.optional("paginationInfo")
            tableTitle = try reader.optional("tableTitle")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("tableTitle", tableTitle)
            builder.set("headings", headings)
            builder.set("rows", rows)
            builder.set("paginationInfo", paginationInfo)
        }
    }

    /// The members of a `form` payload: read-only records.
    public struct Form: PayloadContent {
        /// The records (`forms`).
        public var forms: [ReadOnlyForm]
        /// How many fields share a row (`formColumns`).
        public var formColumns: Int?
        /// Where this page sits in a longer list (`paginationInfo`).
        public var paginationInfo: PaginationInfo?
        /// Creates form content.
        public init(forms: [ReadOnlyForm], formColumns: Int? = nil, paginationInfo: PaginationInfo? = nil) {
            self.forms = forms
            self.formColumns = formColumns
            self.paginationInfo = paginationInfo
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            forms = try reader.required("forms")
            formColumns = try reader.optional("formColumns")
            paginationInfo = try reader.optional("paginationInfo")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("forms", forms)
            builder.set("formColumns", formColumns)
            builder.set("paginationInfo", paginationInfo)
        }
    }

    /// The members of a `tableForm` payload: a table whose row `i` opens form `i`.
    public struct TableForm: PayloadContent {
        /// The column headings (`headings`).
        public var headings: [TableHeading]
        /// The summary rows (`rows`).
        public var rows: [TableRow]
        /// The detail form of each row (`forms`).
        public var forms: [ReadOnlyForm]
        /// How many fields share a row in a detail form (`formColumns`).
        public var formColumns: Int?
        /// The label of the button that opens a row's form (`showFormButtonLabel`).
        public var showFormButtonLabel: String?
        /// The form shown open at first (`disclosedFormIndex`).
        public var disclosedFormIndex: Int?
        /// Where this page sits in a longer table (`paginationInfo`).
        public var paginationInfo: PaginationInfo?
        /// A title above the table (`tableTitle`, web SDK).
        public var tableTitle: String?
        /// Creates table-form content.
        public init(
            headings: [TableHeading], rows: [TableRow], forms: [ReadOnlyForm], formColumns: Int? = nil,
            showFormButtonLabel: String? = nil, disclosedFormIndex: Int? = nil, paginationInfo: PaginationInfo? = nil,
            tableTitle: String? = nil
        ) {
            self.headings = headings
            self.rows = rows
            self.forms = forms
            self.formColumns = formColumns
            self.showFormButtonLabel = showFormButtonLabel
            self.disclosedFormIndex = disclosedFormIndex
            self.paginationInfo = paginationInfo
            self.tableTitle = tableTitle
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            headings = try reader.required("headings")
            rows = try reader.required("rows")
            forms = try reader.required("forms")
            formColumns = try reader.optional("formColumns")
            showFormButtonLabel = try reader.optional("showFormButtonLabel")
            disclosedFormIndex = try reader.optional("disclosedFormIndex")
            paginationInfo = try reader.optional("paginationInfo")
            tableTitle = try reader.optional("tableTitle")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("tableTitle", tableTitle)
            builder.set("headings", headings)
            builder.set("rows", rows)
            builder.set("forms", forms)
            builder.set("formColumns", formColumns)
            builder.set("showFormButtonLabel", showFormButtonLabel)
            builder.set("disclosedFormIndex", disclosedFormIndex)
            builder.set("paginationInfo", paginationInfo)
        }
    }

    /// The members of an `editForm` payload: a form the user fills in and submits with a
    /// `submitForm` action.
    ///
    /// Fields come flat (``fields``, laid out in ``formColumns``) or in rows of columns
    /// (``formRows``). The Oracle node SDK writes both, one of them empty, so ``layoutRows``
    /// chooses by content, not by presence.
    public struct EditForm: PayloadContent {
        /// The heading (`title`).
        public var title: String?
        /// The fields, flat (`fields`).
        public var fields: [Field]?
        /// The fields, in rows and columns (`formRows`).
        public var formRows: [FormRow]?
        /// How many flat fields share a row (`formColumns`).
        public var formColumns: Int?
        /// A form-level message from the skill's validation (`errorMessage`).
        public var errorMessage: String?
        /// Creates edit-form content.
        public init(
            title: String? = nil, fields: [Field]? = nil, formRows: [FormRow]? = nil, formColumns: Int? = nil,
            errorMessage: String? = nil
        ) {
            self.title = title
            self.fields = fields
            self.formRows = formRows
            self.formColumns = formColumns
            self.errorMessage = errorMessage
        }

        /// The fields in rows of columns: ``formRows`` when it has any, otherwise ``fields`` in
        /// rows of ``formColumns`` (1 when absent or less than 1).
        public var layoutRows: [FormRow] {
            if let formRows, !formRows.isEmpty { return formRows }
            let flat = fields ?? []
            let perRow = max(formColumns ?? 1, 1)
            return stride(from: 0, to: flat.count, by: perRow).map { start in
                FormRow(columns: flat[start..<min(start + perRow, flat.count)].map { FormColumn(fields: [$0]) })
            }
        }

        /// Every field, whichever layout the form uses.
        public var allFields: [Field] {
            layoutRows.flatMap { $0.columns.flatMap(\.fields) }
        }

        init(reading reader: inout FieldReader) throws(ParleyError) {
            title = try reader.optional("title")
            fields = try reader.optional("fields")
            formRows = try reader.optional("formRows")
            formColumns = try reader.optional("formColumns")
            errorMessage = try reader.optional("errorMessage")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("title", title)
            builder.set("fields", fields)
            builder.set("formRows", formRows)
            builder.set("formColumns", formColumns)
            builder.set("errorMessage", errorMessage)
        }
    }

    /// The members of a `formSubmission` payload: the values the user entered in an edit form.
    public struct FormSubmission: PayloadContent {
        /// Each editable field's value by field id (`submittedFields`).
        public var submittedFields: JSONObject
        /// The `autoSubmit` field whose change caused this partial submission (`partialSubmitField`).
        public var partialSubmitField: String?
        /// The `submitForm` action's postback (`postback`).
        public var postback: JSONValue?
        /// Creates submission content.
        public init(submittedFields: JSONObject, partialSubmitField: String? = nil, postback: JSONValue? = nil) {
            self.submittedFields = submittedFields
            self.partialSubmitField = partialSubmitField
            self.postback = postback
        }
        init(reading reader: inout FieldReader) throws(ParleyError) {
            submittedFields = try reader.required("submittedFields")
            partialSubmitField = try reader.optional("partialSubmitField")
            postback = try reader.optional("postback")
        }
        func write(to builder: inout ObjectBuilder) {
            builder.set("submittedFields", submittedFields)
            builder.set("partialSubmitField", partialSubmitField)
            builder.set("postback", postback)
        }
    }
}
