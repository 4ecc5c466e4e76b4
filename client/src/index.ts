// The dashboard's SDK: typed documents (one per screen operation), their result and variable types,
// the persisted-documents manifest, a fetch helper and subscriptions over WebSocket.
export * from './gql/graphql.js';
export { createClient, GraphQLRequestError, type Client, type ClientOptions, type GraphQLErrorEntry, type RequestOptions } from './request.js';
export { SubscriptionClosedError, type LiveClient, type LiveSession, type SubscriptionHandlers } from './subscriptions.js';
export { default as persistedDocuments } from './gql/persisted-documents.js';
