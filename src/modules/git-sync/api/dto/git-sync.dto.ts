import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';

export class GitInfoDto {
  @IsOptional()
  @IsIn(['github', 'gitlab'])
  provider?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;
}

export class ImportGitRepositoryDto {
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url: string;

  @IsString()
  @MinLength(1)
  @MaxLength(512)
  ref: string;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  repoCacheID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  repoTreeURL?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  repoCommitURL?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  repoProjectDirectory?: string;

  @IsOptional()
  @IsDateString()
  timestamp?: string;

  @IsOptional()
  @IsBoolean()
  force?: boolean;

  @IsOptional()
  @IsBoolean()
  standalone?: boolean;

  @IsOptional()
  @ValidateNested()
  @Type(() => GitInfoDto)
  gitInfo?: GitInfoDto;
}

export class ExportToGitRepositoryDto extends ImportGitRepositoryDto {
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  commitMessage: string;
}
