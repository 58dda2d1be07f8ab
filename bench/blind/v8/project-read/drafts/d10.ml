(* lib/diagnostics/codes.ml

   The one place diagnostic codes are defined. Codes are never reused: when a
   check is removed its code is retired, not recycled. Keep this sorted. *)

type t = { code : string; slug : string; summary : string }

let make code slug summary = { code; slug; summary }

(* 00xx: lexing and parsing *)
let unterminated_string = make "TRN0001" "unterminated-string" "string literal is not closed"
let unexpected_token = make "TRN0002" "unexpected-token" "unexpected token"
let bad_escape = make "TRN0003" "bad-escape" "unknown escape sequence in string"
let import_cycle = make "TRN0012" "import-cycle" "imports form a cycle"

(* 01xx: typing *)
let type_mismatch = make "TRN0101" "type-mismatch" "value does not have the expected type"
let unbound_name = make "TRN0102" "unbound-name" "name is not defined in this scope"
let missing_field = make "TRN0107" "missing-field" "record is missing a required field"
let extra_field = make "TRN0108" "extra-field" "record has a field the schema does not allow"
let duplicate_key = make "TRN0143" "duplicate-key" "record literal defines the same key twice"

(* 02xx: style (formatter --check) *)
let line_too_long = make "TRN0201" "line-too-long" "line exceeds the configured width"
let trailing_comma = make "TRN0202" "trailing-comma" "missing trailing comma in multi-line record"

let all =
  [ unterminated_string; unexpected_token; bad_escape; import_cycle;
    type_mismatch; unbound_name; missing_field; extra_field; duplicate_key;
    line_too_long; trailing_comma ]

let find code = List.find_opt (fun c -> String.equal c.code code) all

let is_well_formed code =
  String.length code = 7
  && String.sub code 0 3 = "TRN"
  && String.for_all (fun ch -> ch >= '0' && ch <= '9') (String.sub code 3 4)
