/**
 * Type tests of protocol revisions (src/protocol/versions.ts): `ProtocolVersion` is the
 * union of the revisions emcp speaks, and `negotiate` always answers one of them.
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { batchesAllowed, isModernVersion, latestVersion, modernVersions, negotiate, supportedVersions, type AnyProtocolVersion, type Era, type ModernVersion, type ProtocolVersion } from 'emcp'

expectType<'2025-11-25' | '2025-06-18' | '2025-03-26' | '2024-11-05'>({} as ProtocolVersion)
expectType<readonly ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']>(supportedVersions)
expectType<'2025-11-25'>(supportedVersions[0])
expectAssignable<ReadonlyArray<ProtocolVersion>>(supportedVersions)
expectType<ProtocolVersion>(latestVersion)
expectError(supportedVersions.push('2026-01-01'))

// negotiate reads anything a client sent, and answers a revision we speak
expectType<ProtocolVersion>(negotiate('2025-06-18'))
expectType<ProtocolVersion>(negotiate('1999-01-01'))
expectType<ProtocolVersion>(negotiate(undefined))
expectType<ProtocolVersion>(negotiate(20250618))
expectType<ProtocolVersion>(negotiate({} as unknown))
expectError(negotiate())

expectType<boolean>(batchesAllowed('2025-03-26'))
expectType<boolean>(batchesAllowed(latestVersion))
expectError(batchesAllowed('2023-01-01'))
expectError(batchesAllowed('2025-03-26' as string))
expectError(batchesAllowed(negotiate))

expectAssignable<ProtocolVersion>('2025-11-25')
expectAssignable<ProtocolVersion>('2024-11-05')
expectNotAssignable<ProtocolVersion>('2025-11-26')
expectNotAssignable<ProtocolVersion>('2024-10-07')
expectNotAssignable<ProtocolVersion>('latest')

// ---------------------------------------------------------------------------------------
// the 2026-07-28 era beside the 2025-11-25 family

expectType<readonly ['2026-07-28']>(modernVersions)
expectType<'2026-07-28'>({} as ModernVersion)
expectType<ProtocolVersion | ModernVersion>({} as AnyProtocolVersion)
expectType<'2025-11-25' | '2026-07-28'>({} as Era)
expectType<boolean>(isModernVersion('2026-07-28'))
expectNotAssignable<ProtocolVersion>('2026-07-28')
