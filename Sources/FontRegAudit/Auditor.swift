import FontRegCore

/// Computes the audit: from text styles and registered faces to what must ship and what is missing.
///
/// The rules, also in `docs/audit.md`:
/// - A weight on the grid (100…900 in steps of 100) is served by the face of exactly that weight.
/// - A weight off the grid (450, 653, 950) is served by a face of exactly that weight or a variable
///   face whose `wght` range covers it, when the family has one; otherwise by the step CSS matching
///   picks in a complete family (401–499 → 500, below 400 the step below, above 500 the step above,
///   above 900 → 900), which is then the weight required.
/// - Bold Text applies the policy to the weight that serves the style, so the reader always gets a
///   heavier face than the one drawn without it when one exists; never lighter (950 stays 950).
package struct Auditor: Sendable {
    /// Options of the computation.
    package struct Configuration: Sendable {
        /// The Bold Text policy.
        package var boldPolicy: BoldTextPolicy
        /// Supported weights per family (any spelling), overriding the input's and the default nine.
        package var supportedWeights: [String: [Int]]
        /// Family aliases (any spelling) → the family they stand for, as the rules declare them.
        package var aliases: [String: String]

        package init(
            boldPolicy: BoldTextPolicy = .nextHeavier, supportedWeights: [String: [Int]] = [:],
            aliases: [String: String] = [:]
        ) {
            self.boldPolicy = boldPolicy
            self.supportedWeights = supportedWeights
            self.aliases = aliases
        }
    }

    /// The options this auditor applies.
    package var configuration: Configuration

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The uses of one family, gathered from every stack that names it first.
    struct FamilyUses {
        /// The family as first written.
        var name: String
        /// The text styles that use it.
        var uses: [TypographyUse] = []
        /// The other families their stacks name, in order.
        var fallbacks: [String] = []
    }

    /// Audits the text styles of the documents against the registered faces.
    ///
    /// - Parameters:
    ///   - documents: what the readers found, several inputs adding up.
    ///   - faces: every registered face (the registry's index, or the faces of `--fonts DIR`).
    ///   - suggestions: registered families close to an unknown name (the index's `suggestions(for:)`).
    /// - Returns: the report; `complete` is false when a required face is missing or no input holds a text style
    ///   (``AuditStatus/nothingAudited``). A face standing in for a missing one ships (``StyleAudit/standIns``).
    package func audit(
        _ documents: [TypographyDocument], faces: [FaceRecord],
        suggestions: (String) -> [String] = { _ in [] }
    ) -> AuditReport {
        var notes = documents.flatMap(\.notes)
        let grouped = group(documents.flatMap(\.uses), notes: &notes)
        var facesByFamily: [String: [FaceRecord]] = [:]
        for face in faces { facesByFamily[FamilyKey(face.family).value, default: []].append(face) }
        var audits: [FamilyAudit] = grouped.families.map { entry in
            let familyFaces = (facesByFamily[entry.key] ?? []).sorted {
                ($0.file, $0.freetypeIndex) < ($1.file, $1.freetypeIndex)
            }
            return auditFamily(
                name: entry.uses.name, uses: entry.uses.uses, fallbacks: entry.uses.fallbacks, faces: familyFaces,
                suggestions: suggestions)
        }
        audits.sort { $0.family.lowercased() < $1.family.lowercased() }
        Self.keepSharedFiles(&audits)
        let totals = Self.totals(audits)
        let notAuditable = grouped.generics.values.sorted { $0.name < $1.name }.map {
            NotAuditable(
                name: $0.name,
                reason: "a generic or system font name, not a family with files: the platform decides what it draws",
                usedBy: Array(Set($0.usedBy)).sorted())
        }
        let nothingAudited = documents.flatMap(\.uses).isEmpty
        var report = AuditReport(
            inputs: documents.map(\.file), boldPolicy: configuration.boldPolicy, families: audits,
            notAuditable: notAuditable, notes: notes, totals: totals,
            complete: !nothingAudited && totals.missingFaces == 0)
        report.status = nothingAudited ? .nothingAudited : report.complete ? .complete : .incomplete
        report.unusedInputs = documents.flatMap { $0.uses.isEmpty && $0.idleFiles.isEmpty ? [$0.file] : $0.idleFiles }
        report.unusedFamilies = Self.unusedFamilies(documents)
        return report
    }

    /// The families declared as tokens that no text style's stack names, in declaration order.
    static func unusedFamilies(_ documents: [TypographyDocument]) -> [UnusedFamily] {
        let used = Set(
            documents.flatMap(\.uses).flatMap { use -> [String] in
                let stack = FamilyStack(use.familyStack)
                return ([stack.primary].compactMap { $0 } + stack.fallbacks).map { FamilyKey($0).value }
            })
        var unused: [UnusedFamily] = []
        for declared in documents.flatMap(\.declaredFamilies) where !used.contains(FamilyKey(declared.family).value) {
            if let index = unused.firstIndex(where: { FamilyKey($0.family) == FamilyKey(declared.family) }) {
                unused[index].declaredAt.append(declared.origin.description)
            } else {
                unused.append(UnusedFamily(family: declared.family, declaredAt: [declared.origin.description]))
            }
        }
        return unused
    }

    /// Groups the uses by the family their stack chooses (after the rules' aliases), and collects the generic names.
    private func group(_ uses: [TypographyUse], notes: inout [String]) -> (
        families: [(key: String, uses: FamilyUses)], generics: [String: (name: String, usedBy: [String])]
    ) {
        var families: [String: FamilyUses] = [:]
        var order: [String] = []
        var generics: [String: (name: String, usedBy: [String])] = [:]
        let aliases = Dictionary(
            configuration.aliases.map { (FamilyKey($0.key).value, $0.value) }, uniquingKeysWith: { first, _ in first })
        var aliasNotes: [String] = []
        for use in uses {
            let stack = FamilyStack(use.familyStack)
            for generic in stack.generics {
                generics[FontWeight.normalizedName(generic), default: (generic, [])].usedBy.append(
                    use.origin.description)
            }
            guard let primary = stack.primary else { continue }
            var key = FamilyKey(primary).value
            if let target = aliases[key] {
                let note = "\(primary) is an alias of \(target) in the family rules; audited as \(target)"
                if !aliasNotes.contains(note) { aliasNotes.append(note) }
                key = FamilyKey(target).value
            }
            if families[key] == nil {
                families[key] = FamilyUses(name: primary)
                order.append(key)
            }
            families[key]!.uses.append(use)
            for fallback in stack.fallbacks where !families[key]!.fallbacks.contains(fallback) {
                families[key]!.fallbacks.append(fallback)
            }
        }
        notes += aliasNotes
        return (order.map { ($0, families[$0]!) }, generics)
    }

    /// A collection file can hold faces of several families: shipped for one, it is no one's to drop.
    private static func keepSharedFiles(_ audits: inout [FamilyAudit]) {
        let shipped = Set(audits.flatMap { $0.styles.flatMap { ($0.faces + $0.standIns).map(\.file) } })
        for index in audits.indices {
            var dropped: [String: Int64] = [:]
            for styleIndex in audits[index].styles.indices {
                audits[index].styles[styleIndex].unneeded.removeAll { shipped.contains($0.file) }
                for file in audits[index].styles[styleIndex].unneeded { dropped[file.file] = file.bytes }
            }
            audits[index].totals.unneededFiles = dropped.count
            audits[index].totals.unneededBytes = dropped.values.reduce(0, +)
        }
    }

    /// The sums over all families, each file counted once.
    private static func totals(_ audits: [FamilyAudit]) -> AuditTotals {
        var totals = AuditTotals()
        var shipFiles: [String: Int64] = [:]
        var dropFiles: [String: Int64] = [:]
        for family in audits {
            totals.requiredFaces += family.totals.requiredFaces
            totals.foundFaces += family.totals.foundFaces
            totals.missingFaces += family.totals.missingFaces
            for style in family.styles {
                for face in style.faces + style.standIns { shipFiles[face.file] = face.bytes }
                for file in style.unneeded { dropFiles[file.file] = file.bytes }
            }
        }
        totals.shipFiles = shipFiles.count
        totals.shipBytes = shipFiles.values.reduce(0, +)
        totals.unneededFiles = dropFiles.count
        totals.unneededBytes = dropFiles.values.reduce(0, +)
        return totals
    }

    private func supportedWeights(for family: String, uses: [TypographyUse]) -> [Int] {
        let key = FontWeight.normalizedName(family)
        if let given = configuration.supportedWeights.first(where: { FontWeight.normalizedName($0.key) == key })?.value
        {
            return given.sorted()
        }
        if let declared = uses.compactMap(\.supportedWeights).first { return declared.map(\.value) }
        return FontWeight.steps.map(\.value)
    }

    /// The weight that serves `weight`: itself when on the grid or when a face covers it exactly, else the CSS step.
    static func served(_ weight: Int, faces: [FaceRecord]) -> Int {
        if weight % 100 == 0 && (100...900).contains(weight) { return weight }
        if faces.contains(where: { $0.weightRange.contains(weight) }) { return weight }
        return StandInMatcher.gridStep(for: weight)
    }

    /// The face of exactly `weight` among faces of one style: a static face, a named instance, or a variable face covering it.
    static func exactFace(_ weight: Int, in faces: [FaceRecord]) -> FaceRecord? {
        let normalWidth = faces.filter { $0.width == 5 }
        for group in [normalWidth, faces] {
            if let face = group.first(where: { $0.weight == weight && $0.axes.isEmpty })
                ?? group.first(where: { $0.weight == weight && $0.instance != nil })
                ?? group.first(where: { $0.instance == nil && !$0.axes.isEmpty && $0.weightRange.contains(weight) })
            {
                return face
            }
        }
        return nil
    }

    /// The audit of one family: per style the weights used, the faces that serve them, what is missing and what is not needed.
    private func auditFamily(
        name: String, uses: [TypographyUse], fallbacks: [String], faces: [FaceRecord],
        suggestions: (String) -> [String]
    ) -> FamilyAudit {
        let supported = supportedWeights(for: name, uses: uses)
        var styles: [FontStyle] = FontStyle.allCases.filter { style in
            uses.contains { $0.style == style } || faces.contains { $0.style == style }
        }
        if styles.isEmpty { styles = [.normal] }
        var styleAudits: [StyleAudit] = []
        var totals = AuditTotals()
        var shipBytes: [String: Int64] = [:]
        for style in styles {
            let styleFaces = faces.filter { $0.style == style }
            let (plans, roles) = plan(uses.filter { $0.style == style }, faces: styleFaces, supported: supported)
            var shipped: [ShippedFace] = []
            var missing: [MissingFace] = []
            var standIns: [ShippedFace] = []
            for weight in roles.keys.sorted() {
                let roleList = roles[weight]!.sorted { $0 == "used" && $1 != "used" }
                if let face = Auditor.exactFace(weight, in: styleFaces) {
                    shipped.append(
                        ShippedFace(
                            weight: weight, roles: roleList, postscriptName: face.postscriptName, file: face.file,
                            bytes: face.fileSize, variable: !face.axes.isEmpty && face.instance == nil))
                    shipBytes[face.file] = face.fileSize
                } else {
                    let face = missingFace(
                        weight, roles: roles[weight]!, roleList: roleList, style: style, family: name, faces: faces)
                    missing.append(face)
                    // The stand-in is what draws the weight today: it ships, so the text does not fall to a system font.
                    if let standIn = face.standIn,
                        let record = faces.first(where: {
                            $0.postscriptName == standIn.postscriptName && $0.file == standIn.file
                        })
                    {
                        standIns.append(
                            ShippedFace(
                                weight: weight, roles: roleList, postscriptName: record.postscriptName,
                                file: record.file, bytes: record.fileSize,
                                variable: !record.axes.isEmpty && record.instance == nil))
                        shipBytes[record.file] = record.fileSize
                    }
                }
            }
            totals.requiredFaces += roles.count
            totals.foundFaces += shipped.count
            totals.missingFaces += missing.count
            styleAudits.append(
                StyleAudit(
                    family: name, style: style.rawValue, used: plans.map(\.used),
                    boldText: Array(Set(plans.map(\.boldTextServedBy))).sorted(), required: roles.keys.sorted(),
                    weights: plans, faces: shipped, missing: missing, unneeded: [], standIns: standIns))
        }
        let dropBytes = Self.markUnneeded(&styleAudits, faces: faces, used: Set(shipBytes.keys))
        totals.shipFiles = shipBytes.count
        totals.shipBytes = shipBytes.values.reduce(0, +)
        totals.unneededFiles = dropBytes.count
        totals.unneededBytes = dropBytes.values.reduce(0, +)
        return FamilyAudit(
            family: name, registeredFamily: faces.first?.family, fallbacks: fallbacks,
            supportedWeights: supported, suggestions: faces.isEmpty ? suggestions(name) : [],
            styles: styleAudits, totals: totals)
    }

    /// The plan of each weight used in one style, and the roles (`used`, `boldText`) of each weight that serves one.
    private func plan(_ uses: [TypographyUse], faces: [FaceRecord], supported: [Int]) -> (
        [WeightPlan], [Int: Set<String>]
    ) {
        var plans: [WeightPlan] = []
        var roles: [Int: Set<String>] = [:]
        for weight in Set(uses.map(\.weight.value)).sorted() {
            let served = Auditor.served(weight, faces: faces)
            let bold = AuditBoldText.weight(for: served, policy: configuration.boldPolicy, supported: supported)
            let boldServed = Auditor.served(bold, faces: faces)
            let sources = uses.filter { $0.weight.value == weight }.map(\.origin.description)
            plans.append(
                WeightPlan(
                    used: weight, servedBy: served, boldText: bold, boldTextServedBy: boldServed, sources: sources))
            roles[served, default: []].insert("used")
            roles[boldServed, default: []].insert("boldText")
        }
        return (plans, roles)
    }

    /// A required face that is not there: what stands in for it today, and why.
    private func missingFace(
        _ weight: Int, roles: Set<String>, roleList: [String], style: FontStyle, family: String, faces: [FaceRecord]
    ) -> MissingFace {
        let standIn =
            configuration.boldPolicy == .android && roles.contains("boldText") && !roles.contains("used")
            ? WeightMatcher.androidMatch(WeightMatcher.preferredWidth(faces), desired: weight, italic: style != .normal)
            : StandInMatcher.match(weight: weight, style: style, in: faces)
        let reason: String
        if faces.isEmpty {
            reason = "the family \(family) is not registered; a system font stands in"
        } else if let standIn {
            reason =
                "no \(style.rawValue) face of weight \(weight); today \(standIn.postscriptName) (\(standIn.weight) \(standIn.style.rawValue)) stands in"
        } else {
            reason = "no \(style.rawValue) face of weight \(weight)"
        }
        return MissingFace(
            weight: weight, roles: roleList,
            standIn: standIn.map {
                StandIn(postscriptName: $0.postscriptName, weight: $0.weight, style: $0.style.rawValue, file: $0.file)
            },
            reason: reason)
    }

    /// Lists under each style the files no required weight uses (by their faces' style).
    ///
    /// - Returns: the unneeded files and their sizes.
    private static func markUnneeded(_ styleAudits: inout [StyleAudit], faces: [FaceRecord], used: Set<String>)
        -> [String: Int64]
    {
        var dropBytes: [String: Int64] = [:]
        let byFile = Dictionary(grouping: faces, by: \.file)
        for (index, styleAudit) in styleAudits.enumerated() {
            let style = FontStyle(rawValue: styleAudit.style) ?? .normal
            var unneeded: [UnneededFile] = []
            for file in byFile.keys.sorted() where !used.contains(file) {
                let fileFaces = byFile[file]!.sorted { $0.weight < $1.weight }
                guard fileFaces.first?.style == style else { continue }
                unneeded.append(
                    UnneededFile(
                        file: file, bytes: fileFaces[0].fileSize, faces: fileFaces.map(\.postscriptName),
                        weights: Array(
                            Set(fileFaces.flatMap { [$0.weightRange.lowerBound, $0.weightRange.upperBound] })
                        ).sorted()))
                dropBytes[file] = fileFaces[0].fileSize
            }
            styleAudits[index].unneeded = unneeded
        }
        return dropBytes
    }
}
