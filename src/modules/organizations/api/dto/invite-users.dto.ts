import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, ValidateBy, ValidationOptions } from 'class-validator';
import { Omittable } from '@app/common';
import { MEMBER_ROLES, OrgRole, isMemberRole } from '../../../access/domain/roles';

/** `emails` items are either an address or `{email, role}`. */
function IsInviteEntry(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isInviteEntry',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && value.length <= 320) ||
          (typeof value === 'object' &&
            value !== null &&
            Object.keys(value).every((k) => k === 'email' || k === 'role') &&
            typeof (value as { email?: unknown }).email === 'string' &&
            ((value as { role?: unknown }).role === null || isMemberRole((value as { role?: unknown }).role))),
        defaultMessage: () => 'each value must be an e-mail address or an object {email, role}',
      },
    },
    options,
  );
}

export class InviteUsersDto {
  @ApiProperty({ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'object' }] }, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsInviteEntry({ each: true })
  emails: (string | { email: string; role: OrgRole })[];

  @ApiPropertyOptional({ enum: MEMBER_ROLES, nullable: true, description: 'null invites as guests' })
  @IsOptional()
  @IsIn([...MEMBER_ROLES, null])
  role?: OrgRole;

  @ApiPropertyOptional()
  @Omittable()
  @IsBoolean()
  sso?: boolean;
}
