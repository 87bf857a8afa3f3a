import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUrl, Length, MaxLength } from 'class-validator';
import { Omittable } from '@app/common';
import { MEMBER_ROLES, OrgRole } from '../../../access/domain/roles';
import { SAML_CERTIFICATE_MAX, SAML_ENTITY_ID_MAX, SAML_LABEL_MAX, SAML_URL_MAX } from '../../domain/saml-provider';

/** Fields shared by create and update; every one optional here. */
class SamlProviderFieldsDto {
  @ApiPropertyOptional({ maxLength: SAML_ENTITY_ID_MAX, description: "The identity provider's entity id; when set, assertions must be issued by it" })
  @Omittable()
  @IsString()
  @MaxLength(SAML_ENTITY_ID_MAX)
  entityID?: string;

  @ApiPropertyOptional({
    maxLength: SAML_CERTIFICATE_MAX,
    description: "The identity provider's X.509 signing certificate, PEM or its base64 body; answered as PEM",
  })
  @Omittable()
  @IsString()
  @MaxLength(SAML_CERTIFICATE_MAX)
  certificate?: string;

  @ApiPropertyOptional({ format: 'uri', maxLength: SAML_URL_MAX, description: "The identity provider's SSO URL (HTTP-Redirect binding)" })
  @Omittable()
  @IsString()
  @MaxLength(SAML_URL_MAX)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  ssoURL?: string;

  @ApiPropertyOptional({ nullable: true, description: 'Team of the organization that members joining by signing in are added to; null clears it' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  defaultTeam?: string | null;

  @ApiPropertyOptional({ enum: MEMBER_ROLES, nullable: true, description: 'Role of members joining by signing in (null: guests); default `read`' })
  @IsOptional()
  @IsIn([...MEMBER_ROLES, null])
  defaultRole?: OrgRole;
}

export class CreateSamlProviderDto extends SamlProviderFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: SAML_LABEL_MAX })
  @IsString()
  @Length(1, SAML_LABEL_MAX)
  label: string;
}

export class UpdateSamlProviderDto extends SamlProviderFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: SAML_LABEL_MAX })
  @Omittable()
  @IsString()
  @Length(1, SAML_LABEL_MAX)
  label?: string;
}

/** The HTTP-POST binding's form. RelayState is accepted and ignored. */
export class SamlAcsDto {
  @ApiProperty({ description: 'Base64 SAML Response, as the identity provider posts it' })
  @IsString()
  @Length(1, 512 * 1024)
  SAMLResponse: string;

  @ApiPropertyOptional()
  @Omittable()
  @IsString()
  @MaxLength(1024)
  RelayState?: string;
}
