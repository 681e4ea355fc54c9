extern crate proc_macro;
use proc_macro::{TokenStream, TokenTree};

/// The name after `struct` / `enum` (the types deriving KV here have no generics).
fn type_name(input: TokenStream) -> String {
    let mut it = input.into_iter();
    while let Some(t) = it.next() {
        if let TokenTree::Ident(i) = &t {
            let s = i.to_string();
            if s == "struct" || s == "enum" {
                if let Some(TokenTree::Ident(n)) = it.next() {
                    return n.to_string();
                }
            }
        }
    }
    panic!("slog_derive stub: no struct or enum name found");
}

/// `impl slog::KV` that logs no fields (the driver never logs); accepts `#[slog(...)]`.
#[proc_macro_derive(KV, attributes(slog))]
pub fn derive_kv(input: TokenStream) -> TokenStream {
    let name = type_name(input);
    format!(
        "impl ::slog::KV for {name} {{ fn serialize(&self, _: &::slog::Record, \
         _: &mut dyn ::slog::Serializer) -> ::slog::Result {{ Ok(()) }} }}"
    )
    .parse()
    .unwrap()
}

#[proc_macro_derive(SerdeValue, attributes(slog))]
pub fn derive_serde_value(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
